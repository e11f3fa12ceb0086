// rtl-cosim/tools/coverage_return_arms.cpp - driver of coverage_return_arms.sv
// (make cosim-coverage-probe): sel = 0, 1, 2 ten times each, never 3 or 7; the
// line and branch counts written to coverage.dat and read back, each arm's
// count printed beside what it ran. Exit 0 when the assigning arms count what
// they ran (the probe works); it prints whether the returning arms do.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "Vcoverage_return_arms.h"
#include "verilated.h"
#include "verilated_cov.h"

int main(int argc, char **argv)
{
    VerilatedContext context;
    context.commandArgs(argc, argv);
    Vcoverage_return_arms model(&context);
    for (int i = 0; i < 30; i++) {
        model.sel = i % 3;
        model.a = i;
        model.clk = 0;
        model.eval();
        model.clk = 1;
        model.eval();
    }
    model.final();
    const char *path = argc > 1 ? argv[1] : "coverage.dat";
    context.coveragep()->write(path);

    // "C '<key>\1<value>\2...' count" lines: the line (l), the point's kind (o)
    std::ifstream in(path);
    std::string line;
    std::map<std::pair<int, std::string>, long> count;
    while (std::getline(in, line)) {
        if (line.compare(0, 3, "C '") || line.find("v_toggle") != std::string::npos)
            continue;
        auto field = [&](const char *key) {
            std::string k = std::string("\001") + key + "\002";
            size_t at = line.find(k);
            if (at == std::string::npos)
                return std::string();
            at += k.size();
            return line.substr(at, line.find_first_of("\001'", at) - at);
        };
        count[{std::atoi(field("l").c_str()), field("o")}] +=
            std::atol(line.c_str() + line.rfind('\'') + 1);
    }
    // the source's lines of the arms (coverage_return_arms.sv)
    struct arm { int line; const char *kind, *what; long ran; } arms[] = {
        { 21, "case", "return arm 0", 10 }, { 22, "case", "return arm 1", 10 },
        { 23, "case", "return arm 2 (begin-end)", 10 }, { 27, "case", "return arm 3", 0 },
        { 28, "case", "return default", 0 },
        { 35, "case", "assign arm 0", 10 }, { 36, "case", "assign arm 1", 10 },
        { 37, "case", "assign arm 2", 10 }, { 38, "case", "assign arm 3", 0 },
        { 39, "case", "assign default", 0 },
        { 45, "if", "if (sel == 0) return", 10 }, { 45, "else", "  its else", 20 },
        { 46, "if", "if (sel == 7) return", 0 }, { 46, "else", "  its else", 20 },
    };
    bool probe_ok = true, returns_counted = true;
    for (const arm &x : arms) {
        long c = count[{x.line, x.kind}];
        std::printf("line %2d %-5s %-26s ran %2ld, counted %2ld\n", x.line, x.kind, x.what,
                    x.ran, c);
        bool is_return = std::string(x.what).find("return") != std::string::npos;
        if (!is_return && c != x.ran)
            probe_ok = false;
        if (is_return && c != x.ran)
            returns_counted = false;
    }
    std::printf("%s: arms that end in a return are %s\n",
                probe_ok ? "probe ok" : "PROBE BROKEN (assigning arms miscounted)",
                returns_counted ? "counted" : "NOT counted (read 0 however often they run)");
    return probe_ok ? 0 : 1;
}
