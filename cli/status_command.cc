#include "cli/status_command.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "engine/db.h"

namespace po = boost::program_options;

namespace strata::cli {

int Status(const std::vector<std::string>& args) {
  po::options_description options("Options");
  options.add_options()("datadir", po::value<std::string>(), "the Strata data directory")(
      "json", "print the figures as JSON")("force-recovery", po::value<int>()->default_value(0), kForceRecoveryHelp)(
      "read-only", kReadOnlyHelp)("help,h", "show this help");
  po::positional_options_description positional;
  positional.add("datadir", 1);
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata status --datadir D [--json]\n\n"
        << "Opens the data directory (recovering it if it stopped uncleanly, without running purge) and\n"
        << "prints the TRANSACTIONS section of SHOW ENGINE INNODB STATUS: the transaction id counter,\n"
        << "how far purge got, the history list length (committed update-undo logs not yet purged)\n"
        << "and the open transactions. The directory must not be in use by another process.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  if (auto done = ParseOptions("status", args, options, positional, usage, vm, {"datadir"})) return *done;
  engine::DatabaseOptions o;
  o.create_if_missing = false;
  o.purge = false;  // report the history as it is, not as purge leaves it
  o.page_cleaner = false;
  int exit_code = kExitOk;
  auto db = OpenDataDirectory("status", vm, o, exit_code);
  if (!db) return exit_code;
  const engine::EngineStatus s = db->StatusReport();
  if (vm.count("json")) {
    nlohmann::json trx = nlohmann::json::array();
    for (const auto& t : s.transactions) {
      trx.push_back({{"id", t.id},
                     {"isolation", engine::ToString(t.isolation)},
                     {"seconds", t.seconds},
                     {"undo_records", t.undo_records},
                     {"rows_modified", t.rows_modified},
                     {"read_view", t.has_view}});
    }
    nlohmann::json j = {{"trx_id_counter", s.max_trx_id},
                        {"purge_done_below_trx_no", s.purged_below_no},
                        {"history_list_length", s.history_list_length},
                        {"recovered_rolled_back_transactions", db->recovery().rolled_back_trx},
                        {"transactions", trx}};
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << s.Render();
  if (db->recovery().rolled_back_trx) {
    std::cout << "(opening rolled back " << db->recovery().rolled_back_trx
              << " transaction(s) left active by a crash)\n";
  }
  return kExitOk;
}

}  // namespace strata::cli
