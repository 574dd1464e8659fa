// Linked by tests/layers/CMakeLists.txt against one layer and what that layer links: calls
// cairo, so the link succeeds only where cairo is in the layer's link interface. Declared
// here rather than included, so that the probe compiles everywhere and only the link decides.
extern "C" const char* cairo_version_string(void);

int main() {
    return cairo_version_string() != nullptr ? 0 : 1;
}
