// The command line's parsers under a deterministic corpus of mutated arguments (issue 12):
// --sizes and --tensor-sizes, --size, --kernels and --gpu either parse or throw one
// error_kind::usage line that names what was wrong; through the whole command line, a mutated
// argument or a corrupt profile gives exit code 2 and exactly one line on stderr.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "../core/fuzz_corpus.hpp"
#include "cli/size_plan.hpp"
#include "core/strings.hpp"
#include "gpu/spec.hpp"
#include "run_cli.hpp"
#include "rung.hpp"
#include "scratch_dir.hpp"

using namespace tgemm;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> size_seeds = {"1024,2048,4096x2048x1024", "8192",
                                             "512, 1000x776x328", "65536", "1x1x1,7"};

// A parsed size is within what the parser promises, and reads back from its own spelling.
void sane(const std::vector<shape>& shapes) {
    if (shapes.empty()) throw std::logic_error("parsed to no sizes");
    for (const auto& s : shapes) {
        for (const auto side : {s.m, s.n, s.k})
            if (side < 1 || side > max_shape_side)
                throw std::logic_error("a side out of range: " + to_arg(s));
        if (parse_shape(to_arg(s)) != s) throw std::logic_error("does not read back: " + to_arg(s));
    }
}

std::vector<std::string> corpus_of(const std::vector<std::string>& seeds, std::uint32_t seed,
                                   std::size_t n) {
    fuzz::mutator mut(seed);
    auto corpus = mut.corpus(seeds, n);
    for (const auto& s : seeds) {
        const auto cuts = fuzz::mutator::truncations(s, s.size());
        corpus.insert(corpus.end(), cuts.begin(), cuts.end());
    }
    // Long and odd arguments no mutation of a short seed reaches.
    for (const auto& odd : std::vector<std::string>{
             std::string(1 << 20, '1'), std::string(1 << 20, ','), std::string(1 << 16, 'x'),
             std::string(100000, 'a'), "4096" + std::string(1 << 16, ' '), std::string("\0", 1),
             std::string("naive\0", 6), "\xff\xfe", "\xc0\xaf",
             "\xe2\x80\xae"
             "1024",
             "\xd9\xa3", "\xef\xbc\x91\xef\xbc\x92", "1e3", "0x10", "+5", "-0", "1_000", " ",
             "\t\n"})
        corpus.push_back(odd);
    return corpus;
}

}  // namespace

TEST(ParserFuzz, SizeLists) {
    const auto corpus = corpus_of(size_seeds, 12, 2500);
    fuzz::check_all(
        corpus,
        [](const std::string& s) {
            cli::main_options o;
            o.sizes = s;
            o.sizes_given = true;
            sane(cli::plan_sizes(o).shapes);
            o.sizes = "1024";
            o.tensor_sizes = s;
            o.tensor_sizes_given = true;
            sane(cli::plan_sizes(o).shapes);
        },
        error_kind::usage, "size", "--sizes");
    // The single size of run-kernel --size.
    fuzz::check_all(
        corpus, [](const std::string& s) { sane({parse_shape(s)}); }, error_kind::usage, "size",
        "--size");
}

// The list that was empty is the one named.
TEST(ParserFuzz, EmptyTensorSizesNameTheirOption) {
    cli::main_options o;
    o.tensor_sizes = " ";
    o.tensor_sizes_given = true;
    try {
        (void)cli::plan_sizes(o);
        FAIL();
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("--tensor-sizes is empty"), std::string::npos)
            << e.what();
    }
}

TEST(ParserFuzz, GpuNames) {
    auto seeds = gpu_keys();
    seeds.push_back("H100");
    const auto corpus = corpus_of(seeds, 7, 1500);
    fuzz::check_all(
        corpus, [](const std::string& s) { (void)find_gpu(s); }, error_kind::usage, "unknown GPU",
        "--gpu");
}

// Through the command line: rung_registry::select quotes the list unescaped in one message
// ("--kernels has an empty name in ',\n'"), which cli/ prints as one line; a list that parses
// reaches the unknown GPU after it. Exit 2 and one line either way.
TEST(ParserFuzz, KernelLists) {
    const auto ids = rung_registry::get().ids();
    std::vector<std::string> seeds = {"all", "naive,smem_tiling", join(ids, ","), ids.back()};
    const auto corpus = corpus_of(seeds, 5, 1000);
    fuzz::check_all(
        corpus,
        [](const std::string& s) {
            const auto r = test::run_cli({"--kernels", s, "--gpu", "no-such-gpu"});
            if (r.code != 2 || test::count_lines(r.err) != 1 || !r.err.ends_with('\n') ||
                !r.out.empty())
                throw std::logic_error(fmt::format("exit {}, stderr '{}', stdout '{}'", r.code,
                                                   fuzz::show(r.err), fuzz::show(r.out)));
            throw error(error_kind::usage, r.err.substr(0, r.err.size() - 1));
        },
        error_kind::usage, "tgemm-roofline: ", "--kernels");
}

// A suggestion for a name of a megabyte is as quick as for a short one.
TEST(ParserFuzz, HugeNamesSuggestQuickly) {
    const auto ids = rung_registry::get().ids();
    const auto start = std::chrono::steady_clock::now();
    for (const auto& name :
         std::vector<std::string>{std::string(1 << 20, 'n'), "naive" + std::string(1 << 20, '_'),
                                  std::string(1 << 20, '\xff')}) {
        const auto message = unknown_name_message("kernel", name, ids);
        EXPECT_LT(message.size(), 2000u);
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
    EXPECT_EQ(closest("naive" + std::string(1 << 20, '_'), ids), "naive");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// ---- through the whole command line -----------------------------------------------------------

class CliFuzz : public test::scratch_dir_test {
  protected:
    CliFuzz() : scratch_dir_test("tgemm-cli-fuzz-") {}

    // Exit code 2 and one line on stderr, nothing on stdout.
    void expect_usage(const std::vector<std::string>& args) {
        const auto r = test::run_cli(args);
        std::string shown;
        for (const auto& a : args) shown += " '" + fuzz::show(a, 60) + "'";
        EXPECT_EQ(r.code, 2) << shown << "\n" << r.err;
        EXPECT_EQ(test::count_lines(r.err), 1) << shown << "\n" << r.err;
        EXPECT_TRUE(r.err.ends_with("\n")) << shown;
        EXPECT_TRUE(r.out.empty()) << shown << "\n" << r.out;
    }
};

TEST_F(CliFuzz, MutatedArgumentsGiveOneLineAndExitTwo) {
    const auto out = (m_dir / "out").string();
    for (const auto& sizes :
         {"1024\n2048", "1024x", "4096x2048x1024x1", ",,", "", "\xff", "65537", "1e3",
          "99999999999999999999999", "4096 x 2048", "1024,2048,4096x2048x1024,", "\n"})
        expect_usage({"--gpu", "a100", "--sizes", sizes, "--out", out});
    expect_usage({"--gpu", "a100", "--sizes", std::string(1 << 20, '7'), "--out", out});
    for (const auto& tensor : {"", "0", "8192x", "81\n92"})
        expect_usage({"--gpu", "a100", "--tensor-sizes", tensor, "--out", out});
    // A GPU that does not exist comes after the kernel list is read: each list either is
    // wrong itself or reaches the unknown GPU, and either way one line.
    for (const auto& kernels :
         {"naive,\n,smem_tiling", "naive,,smem_tiling", "nai\xffve", "naive\n", "\nall", ",",
          "naive,smem_tiling\r\nx", "all,naive", "ALL", "naive, smem_tiling"})
        expect_usage({"--kernels", kernels, "--gpu", "no-such-gpu", "--out", out});
    expect_usage({"--kernels", std::string(1 << 20, 'k'), "--gpu", "a100", "--out", out});
    for (const auto& gpu : {"h1\n00", "", "\xff", "h100\r", "auto\n", "h100,a100", "h 100"})
        expect_usage({"--gpu", gpu, "--out", out});
    expect_usage({"--gpu", std::string(1 << 20, 'h'), "--out", out});
    expect_usage({"run-kernel", "--kernel", "naive\nx", "--size", "1024"});
    expect_usage({"run-kernel", "--kernel", "naive", "--size", "10\n24"});
    expect_usage({"--runs", "5\n"});
    EXPECT_FALSE(fs::exists(out)) << "written on bad input";
}

TEST_F(CliFuzz, CorruptProfilesGiveOneLineAndExitTwo) {
    std::ifstream in(std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json", std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    const auto good = buf.str();
    ASSERT_GT(good.size(), 1000u);
    const auto at = [&](const std::string& key) { return good.find(key); };
    std::vector<std::string> bad = {
        "",
        good.substr(0, good.size() / 3),
        std::string(good).replace(at("\"sm_count\": 132"), 15, "\"sm_count\": 1e999"),
        std::string(good).replace(at("\"sm_count\": 132"), 15, "\"sm_count\": 4294967297"),
        std::string(good).replace(at("\"fp32\": {"), 9, "\"fp32\\n\": {"),
        std::string(good).replace(at("\"schema\": \""), 11, "\"schema\": \"\\n"),
        std::string(good).insert(at("\"measurements\": [") + 17, std::string(100000, '[')),
        "\xff\xfe" + good,
    };
    fuzz::mutator mut(2);
    for (int i = 0; i < 4; ++i) bad.push_back(mut.once(good.substr(0, good.size() / 2)));
    for (std::size_t i = 0; i < bad.size(); ++i) {
        const auto file = m_dir / ("corrupt-" + std::to_string(i) + ".json");
        std::ofstream(file, std::ios::binary) << bad[i];
        const auto out = (m_dir / "out").string();
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"report", file.string(), "--out", out},
                 {"report", file.string(), "--summary"},
                 {"--gpu", "h100", "--offline", "--profile", file.string(), "--out", out}}) {
            expect_usage(args);
            const auto r = test::run_cli(args);
            EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
        }
    }
    // The profile path is a folder.
    expect_usage({"report", m_dir.string(), "--summary"});
}
