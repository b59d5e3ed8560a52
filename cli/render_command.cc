#include "cli/render_command.h"
#include "cli/key_options.h"

#include "cli/progress.h"

#include <boost/program_options.hpp>

#include <iostream>

#include "inspect/page_info.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/sys_dictionary.h"
#include "viz/map_model.h"
#include "viz/render.h"

namespace strata::cli {

namespace po = boost::program_options;
using namespace strata::inspect;

namespace {

constexpr int kMinWidth = 200, kMaxWidth = 20000;  // narrower, not even one map and its legend fit

po::options_description RenderOptionsDescription() {
  po::options_description options("Options");
  options.add_options()("output,o", po::value<std::string>(), "the image to write: OUT.png or OUT.svg")(
      "title", po::value<std::string>()->default_value(""), "a title above the maps")(
      "width", po::value<int>()->default_value(1200),
      "image width in pixels (200 to 20000); the picture is never wider")(
      "shared-scale", "lsn: colour every file on one LSN range (default: each file on its own, oldest to newest page)")(
      "rank",
      "lsn: colour by the page's rank by LSN within its file (spreads a file over the whole scale; "
      "the colour is then not an LSN)")("linear",
                                        "lsn: colour by LSN between each file's oldest and newest page (the default)")(
      "max-rows", po::value<std::uint32_t>()->default_value(1024), "merge pages into cells beyond this many rows")(
      "help,h", "show this help");
  AddKeyOptions(options);
  return options;
}

// The picture of `files` written to `out`, said on stdout; the model it drew.
ondisk::Result<viz::MapModel> DrawFiles(viz::MapKind kind, std::vector<SpaceFile>& files, const po::variables_map& vm,
                                        const std::filesystem::path& out) {
  ServerDictionaries servers;
  std::vector<Dictionary> names;
  names.reserve(files.size());
  for (const auto& f : files) names.push_back(DictionaryFor(f, servers.For(f)));
  std::vector<viz::MapInput> inputs;
  for (std::size_t i = 0; i < files.size(); ++i) inputs.push_back({&files[i], &names[i]});
  viz::ModelOptions mo;
  mo.kind = kind;
  mo.shared_scale = vm.count("shared-scale") > 0;
  mo.rank_within_file = vm.count("rank") > 0;
  mo.max_rows = std::max<std::uint32_t>(1, vm["max-rows"].as<std::uint32_t>());
  mo.title = vm["title"].as<std::string>();
  ScanProgress progress(TerminalProgressBar());
  viz::MapModel model = viz::BuildModel(inputs, mo);
  viz::RenderOptions ro;
  ro.width = vm["width"].as<int>();
  viz::Layout l;
  STRATA_RETURN_IF_ERROR(viz::WriteMap(model, ro, out, &l));
  std::cout << "wrote " << out.string() << " (" << l.width << "x" << l.height << ", " << model.panels.size() << " file"
            << (model.panels.size() == 1 ? "" : "s") << ", " << model.pages_per_cell << " page"
            << (model.pages_per_cell == 1 ? "" : "s") << " per cell)\n";
  return model;
}

int Render(viz::MapKind kind, const std::vector<std::string>& args) {
  const std::string name = viz::ToString(kind);
  const po::options_description options = RenderOptionsDescription();
  po::options_description all;
  all.add(options).add_options()("path", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("path", -1);
  auto usage = [&](std::ostream& out) {
    out << "Usage: strata render " << name << " PATH... -o OUT.png|OUT.svg [options]\n\n"
        << "Draws the " << name << " map of each tablespace (a file or every file of a data directory),\n"
        << "side by side on one scale, with a legend of pages and percent per colour.\n\n"
        << options << "\n";
  };
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "strata render " << name << ": " << e.what() << "\n";
    usage(std::cerr);
    return kExitUsage;
  }
  if (vm.count("help")) {
    usage(std::cout);
    return kExitOk;
  }
  if (!vm.count("path") || !vm.count("output")) {
    std::cerr << "strata render " << name << ": " << (vm.count("path") ? "missing -o OUT" : "missing PATH") << "\n";
    usage(std::cerr);
    return kExitUsage;
  }
  if (const int w = vm["width"].as<int>(); w < kMinWidth || w > kMaxWidth) {
    std::cerr << "strata render " << name << ": --width " << w << ": give " << kMinWidth << " to " << kMaxWidth
              << " pixels\n";
    return kExitUsage;
  }
  const std::filesystem::path out = vm["output"].as<std::string>();
  if (out.extension() != ".png" && out.extension() != ".svg") {
    std::cerr << "strata render " << name << ": " << out.string() << ": the output must end in .png or .svg\n";
    return kExitUsage;
  }

  std::vector<std::filesystem::path> wanted;
  for (const auto& p : vm["path"].as<std::vector<std::string>>()) wanted.emplace_back(p);
  std::vector<Finding> findings;
  auto keys = KeysFromOptions(vm);
  if (!keys.ok()) {
    std::cerr << "strata render " << name << ": " << keys.status().message() << "\n";
    return kExitFailure;
  }
  std::vector<SpaceFile> files = OpenSpaces(wanted, &findings, &*keys);
  for (const auto& f : findings) std::cerr << "strata render " << name << ": " << f.ToString() << "\n";
  if (files.empty()) return kExitFailure;

  auto drawn = DrawFiles(kind, files, vm, out);
  if (!drawn.ok()) {
    std::cerr << "strata render " << name << ": " << drawn.status().ToString() << "\n";
    return kExitFailure;
  }
  const viz::MapModel& model = *drawn;
  // Damage is drawn (in red) and said: the picture is not of an intact file.
  bool damaged = false;
  for (std::size_t i = 0; i < model.panels.size(); ++i) {
    if (!model.panels[i].damaged_pages) continue;
    damaged = true;
    std::cerr << "strata render " << name << ": " << files[i].path().string() << ": " << model.panels[i].damaged_pages
              << " page" << (model.panels[i].damaged_pages == 1 ? " fails its" : "s fail their")
              << " checksum (drawn as damaged; `strata inspect check` says which)\n";
  }
  return findings.empty() && !damaged ? kExitOk : kExitFailure;
}

}  // namespace

std::vector<Command> RenderCommands() {
  std::vector<Command> out;
  for (const auto& map : {std::pair{viz::MapKind::kExtents, "page fill per extent, coloured by index"},
                          std::pair{viz::MapKind::kLsn, "page LSN age on a perceptual scale, with a histogram"},
                          std::pair{viz::MapKind::kTypes, "page type of every page"},
                          std::pair{viz::MapKind::kIndex, "which index owns every page"}}) {
    const viz::MapKind kind = map.first;  // a variable, not a structured binding: clang 14 cannot capture those
    out.push_back(
        {viz::ToString(kind), map.second, [kind](const std::vector<std::string>& args) { return Render(kind, args); }});
  }
  return out;
}

}  // namespace strata::cli
