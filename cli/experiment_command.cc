#include "cli/experiment_command.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "cli/options.h"
#include "cli/progress.h"
#include "datasets/history_experiment.h"

namespace po = boost::program_options;

namespace strata::cli {
namespace {

int History(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the data directory (created when missing)")(
      "updates", po::value<std::uint64_t>()->default_value(10000), "single-row updates run while the view is open")(
      "samples", po::value<std::uint64_t>()->default_value(20), "history list length samples while they run")(
      "purge-after", "reopen after the shutdown and watch purge empty the history (the undo on disk is then gone)")(
      "json", "print the samples and figures as JSON")("help,h", "show this help");
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata experiment history --datadir D [--updates N] [--purge-after] [--json]\n\n"
        << "Why does 'History list length' keep growing? One session opens a REPEATABLE READ view\n"
        << "(START TRANSACTION WITH CONSISTENT SNAPSHOT) and keeps it; other sessions run N single-row\n"
        << "updates of bank.acct. Each committed update leaves an update-undo log that purge may not\n"
        << "remove while the view could still read the versions it holds, so the history grows by one\n"
        << "per update. The engine then stops with a fast shutdown, the view still open, and the\n"
        << "history stays on disk: see it with 'strata inspect undo D --logs'.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("experiment history", args, options, {}, usage, vm, {"datadir"})) return *done;
  const bool json = vm.count("json") > 0;
  datasets::HistoryExperimentOptions o;
  o.updates = vm["updates"].as<std::uint64_t>();
  o.samples = vm["samples"].as<std::uint64_t>();
  o.purge_after = vm.count("purge-after") > 0;
  const std::string dir = vm["datadir"].as<std::string>();
  ProgressBar progress("updates with the view open", o.updates);
  if (!json) std::cout << fmt::format("{:<14} {:>9} {:>22} {:>9}\n", "phase", "updates", "History list length", "seconds");
  auto result = datasets::RunHistoryExperiment(dir, o, [&](const datasets::HistorySample& s) {
    if (s.phase == "view_open") progress.Update(s.updates);
    if (json) return;
    progress.Finish();
    std::cout << fmt::format("{:<14} {:>9} {:>22} {:>9.2f}\n", s.phase, s.updates, s.history_list_length, s.seconds) << std::flush;
  });
  progress.Finish();
  if (!result.ok()) {
    std::cerr << "strata experiment history: " << result.status().ToString() << "\n";
    return kExitFailure;
  }
  const auto& r = *result;
  if (json) {
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& s : r.samples) {
      samples.push_back({{"phase", s.phase}, {"updates", s.updates}, {"history_list_length", s.history_list_length}, {"seconds", s.seconds}});
    }
    nlohmann::json j = {{"datadir", dir},
                        {"updates", o.updates},
                        {"history_at_start", r.history_at_start},
                        {"history_at_shutdown", r.history_at_shutdown},
                        {"growth", r.history_at_shutdown - r.history_at_start},
                        {"view_still_reads_k", r.view_reads_k},
                        {"update_seconds", r.update_seconds},
                        {"samples", samples}};
    if (o.purge_after) {
      j["history_after_restart"] = r.history_after_restart;
      j["history_at_end"] = r.history_at_end;
      j["purge_seconds"] = r.purge_seconds;
    }
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << "\n"
            << fmt::format("{} updates in {:.2f} s; the history grew by {} (from {} to {}) while the view stayed open,\n",
                           o.updates, r.update_seconds, r.history_at_shutdown - r.history_at_start, r.history_at_start,
                           r.history_at_shutdown)
            << fmt::format("and the view still reads k = {}, the version from before the first update.\n\n", r.view_reads_k)
            << "At shutdown:\n"
            << r.status_at_shutdown << "\n";
  if (o.purge_after) {
    std::cout << fmt::format("After the restart the history was {}; purge brought it to {} in {:.2f} s.\n",
                             r.history_after_restart, r.history_at_end, r.purge_seconds);
  } else {
    std::cout << "The engine stopped with a fast shutdown (innodb_fast_shutdown=1) while the view was open:\n"
              << fmt::format("the history is on disk. See it with: strata inspect undo {} --logs\n", dir);
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> ExperimentCommands() {
  return {{"history", "undo history growing behind an open read view, live and on disk", History}};
}

}  // namespace strata::cli
