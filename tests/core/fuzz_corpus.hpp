#pragma once
// A deterministic corpus of mutated inputs for the fuzz tests (issue 12): byte-level mutations
// of seed texts from a fixed-seed PRNG, a check that a call either succeeds or throws one
// tgemm::error whose message is one non-empty line naming the input, and a minimizer that
// shrinks an input that breaks the rule before it is printed.
#include <cxxabi.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <random>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "core/error.hpp"

namespace tgemm::fuzz {

// An input in one printable line: control and non-ASCII bytes as \xNN, cut after `limit` bytes.
inline std::string show(std::string_view s, std::size_t limit = 400) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (s.size() > limit) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

// ---- a crash still names its input ----------------------------------------------------------
// The input under test, for the signal handler: a crash (or a stack overflow on deep nesting)
// prints the start of it before the process dies.
inline const std::string* current_input = nullptr;

inline void on_crash(int sig) {
    static constexpr char hex[] = "0123456789abcdef";
    const char head[] = "\nfuzz: crashed (signal) on input: ";
    (void)!::write(2, head, sizeof head - 1);
    if (const auto* s = current_input) {
        char buf[4];
        for (std::size_t i = 0; i < s->size() && i < 300; ++i) {
            const auto c = static_cast<unsigned char>((*s)[i]);
            if (c >= 0x20 && c < 0x7f) {
                (void)!::write(2, &c, 1);
            } else {
                buf[0] = '\\', buf[1] = 'x', buf[2] = hex[c >> 4], buf[3] = hex[c & 15];
                (void)!::write(2, buf, 4);
            }
        }
    }
    (void)!::write(2, "\n", 1);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

// Installed once per test binary; an alternate stack so a stack overflow reaches the handler.
inline void install_crash_reporter() {
    static bool done = false;
    if (done) return;
    done = true;
    static std::vector<char> alt(1 << 16);
    stack_t ss{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK;
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

// ---- the rule ---------------------------------------------------------------------------------

// What a call may do with any input: return, or throw tgemm::error of `kind` whose message is
// one non-empty line that contains `must_name`. The answer is empty when it kept to that, else a
// short class of what went wrong (the minimizer keeps the class) and the detail.
struct verdict {
    std::string kind;    // "" when acceptable; else e.g. "std::out_of_range escaped"
    std::string detail;  // the message, shown in one line
    explicit operator bool() const { return !kind.empty(); }
};

template <class Call>
verdict judge(Call&& call, const std::string& input, error_kind kind, std::string_view must_name) {
    current_input = &input;
    verdict v;
    try {
        call(input);
    } catch (const tgemm::error& e) {
        const std::string what = e.what();
        v.detail = show(what, 600);
        if (e.kind() != kind)
            v.kind = "wrong error_kind";
        else if (what.empty())
            v.kind = "empty message";
        else if (what.find_first_of("\n\r") != std::string::npos)
            v.kind = "multi-line message";
        else if (what.find(must_name) == std::string::npos)
            v.kind = "message does not name the input";
    } catch (const std::bad_alloc&) {
        v.kind = "std::bad_alloc escaped";
    } catch (const std::exception& e) {
        int status = 0;
        char* name = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
        v.kind = std::string(status == 0 && name ? name : typeid(e).name()) + " escaped";
        std::free(name);
        v.detail = show(e.what(), 600);
    } catch (...) {
        v.kind = "unknown exception escaped";
    }
    current_input = nullptr;
    return v;
}

// Shrinks `input` while `still(candidate)` holds (the same class of failure): drops chunks of
// halving size, at most `budget` tries.
template <class Still>
std::string minimize(std::string input, Still&& still, int budget = 4000) {
    for (std::size_t chunk = input.size() / 2; chunk >= 1 && budget > 0; chunk /= 2) {
        for (std::size_t at = 0; at + chunk <= input.size() && budget > 0;) {
            std::string cand = input.substr(0, at) + input.substr(at + chunk);
            --budget;
            if (still(cand))
                input = std::move(cand);
            else
                at += chunk;
        }
    }
    return input;
}

// Checks every input of `corpus` against the rule; each one that breaks it fails the test with
// the minimized input. Returns how many were run.
template <class Call>
std::size_t check_all(const std::vector<std::string>& corpus, Call&& call, error_kind kind,
                      std::string_view must_name, std::string_view label) {
    install_crash_reporter();
    int reported = 0;
    for (std::size_t i = 0; i < corpus.size(); ++i) {
        const auto v = judge(call, corpus[i], kind, must_name);
        if (!v) continue;
        const auto small = minimize(corpus[i], [&](const std::string& s) {
            return judge(call, s, kind, must_name).kind == v.kind;
        });
        const auto vs = judge(call, small, kind, must_name);
        ADD_FAILURE() << label << " case " << i << ": " << v.kind << "\n  minimized input: \""
                      << show(small) << "\"\n  its message: " << vs.detail
                      << "\n  original input: \"" << show(corpus[i], 200) << "\"";
        if (++reported == 10) {
            ADD_FAILURE() << label << ": stopping after 10 failures";
            break;
        }
    }
    return corpus.size();
}

// ---- mutations ----------------------------------------------------------------------------------

// Bytes and tokens that parsers trip on.
inline constexpr std::array<char, 24> interesting_bytes = {
    '\0', '\n', '\r', '\t', '"', '\\', '{', '}', '[',    ']',    ',',    ':',
    '-',  '+',  '0',  '9',  'e', '.',  'x', ' ', '\x7f', '\x80', '\xc0', '\xff'};
inline const std::vector<std::string> interesting_tokens = {"NaN",
                                                            "Infinity",
                                                            "-Infinity",
                                                            "1e999",
                                                            "-1e999",
                                                            "1e-999",
                                                            "null",
                                                            "true",
                                                            "[]",
                                                            "{}",
                                                            "\"\"",
                                                            "18446744073709551616",
                                                            "-9223372036854775809",
                                                            "9223372036854775807",
                                                            "0x10",
                                                            "-0",
                                                            "1e3",
                                                            "\xff\xfe",
                                                            "\xc0\xaf",
                                                            "\xed\xa0\x80",
                                                            "\\ud800",
                                                            "\n",
                                                            "\xef\xbb\xbf",
                                                            "65536",
                                                            "65537",
                                                            "4294967296",
                                                            "2147483648",
                                                            "99999999999999999999999999"};

class mutator {
  public:
    explicit mutator(std::uint32_t seed) : m_rng(seed) {}

    std::size_t below(std::size_t n) {
        return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(m_rng);
    }

    // One random mutation of `s`.
    std::string once(std::string s) {
        const std::size_t pos = below(s.size() + 1);
        switch (below(8)) {
            case 0:  // flip one bit
                if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1u << below(8));
                break;
            case 1:  // overwrite a byte
                if (!s.empty())
                    s[below(s.size())] = interesting_bytes[below(interesting_bytes.size())];
                break;
            case 2:  // truncate
                s.resize(pos);
                break;
            case 3: {  // delete a range
                const auto len = 1 + below(std::min<std::size_t>(64, s.size() - pos + 1));
                s.erase(pos, len);
                break;
            }
            case 4: {  // duplicate a range
                const auto len = 1 + below(std::min<std::size_t>(64, s.size() - pos + 1));
                s.insert(pos, s.substr(pos, len));
                break;
            }
            case 5:  // insert a byte
                s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos),
                         interesting_bytes[below(interesting_bytes.size())]);
                break;
            case 6:  // insert a token
                s.insert(pos, interesting_tokens[below(interesting_tokens.size())]);
                break;
            default: {  // replace a run of digits (a number) with a token
                const auto d = s.find_first_of("0123456789", pos);
                if (d == std::string::npos) break;
                const auto e = s.find_first_not_of("0123456789.eE+-", d);
                s.replace(d, (e == std::string::npos ? s.size() : e) - d,
                          interesting_tokens[below(interesting_tokens.size())]);
                break;
            }
        }
        return s;
    }

    // `n` inputs, each 1 to 3 mutations away from one of `seeds`.
    std::vector<std::string> corpus(const std::vector<std::string>& seeds, std::size_t n) {
        std::vector<std::string> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            auto s = seeds[i % seeds.size()];
            for (std::size_t m = 0, times = 1 + below(3); m < times; ++m) s = once(std::move(s));
            out.push_back(std::move(s));
        }
        return out;
    }

    // Truncations of `s` at `n` offsets spread over it.
    static std::vector<std::string> truncations(const std::string& s, std::size_t n) {
        std::vector<std::string> out;
        for (std::size_t i = 0; i < n; ++i) out.push_back(s.substr(0, s.size() * i / n));
        return out;
    }

  private:
    std::mt19937 m_rng;
};

}  // namespace tgemm::fuzz
