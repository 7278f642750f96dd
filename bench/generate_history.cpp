// generate_history: writes a generated lock history as history.jsonl.
//   generate_history --ops 1000000 --clients 10 --keys 1 --info 0.05 --plant --seed 7 --out history.jsonl
//   generate_history --open-locks 20000 --out history.jsonl   (bench::generate_open_locks(20000, 20000))
#include <CLI/CLI.hpp>
#include <iostream>

#include "bench/history_generator.hpp"
#include "core/history_io.hpp"

int main(int argc, char** argv) {
    lockcheck::bench::GeneratorOptions o;
    std::string out;
    int open_locks = 0;
    CLI::App app{"Generate a lock history (history.jsonl) for benchmarks and other tools"};
    app.add_option("--ops", o.ops, "op records to generate")->capture_default_str();
    app.add_option("--clients", o.clients, "sequential workers")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--keys", o.keys, "lock keys")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--info", o.info, "share of acquires/releases completing as info")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    app.add_flag("--plant", o.plant_violation, "plant one double grant half-way");
    app.add_option("--seed", o.seed, "random seed")->capture_default_str();
    app.add_option("--open-locks", open_locks,
                   "instead: N locks never released, then N sessions one after another (the other options unused)")
        ->check(CLI::Range(1, 10'000'000));
    app.add_option("--out", out, "where to write history.jsonl")->required();
    CLI11_PARSE(app, argc, argv);
    const auto history = open_locks > 0 ? lockcheck::bench::generate_open_locks(open_locks, open_locks)
                                        : lockcheck::bench::generate_history(o);
    lockcheck::write_history(out, history);
    std::cout << "wrote " << history.size() << " ops to " << out << "\n";
    return 0;
}
