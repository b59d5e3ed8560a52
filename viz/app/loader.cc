#include "viz/app/app_state.h"

#include <iostream>

#include "inspect/page_info.h"
#include "inspect/redo_apply.h"
#include "inspect/sys_dictionary.h"

namespace strata::viz {

void StartLoading(AppState& app, const std::vector<std::filesystem::path>& paths) {
  std::vector<inspect::Finding> findings;
  for (const auto& p : inspect::ExpandPaths(paths, &findings)) {
    auto f = std::make_unique<LoadedFile>();
    f->path = p;
    app.files.push_back(std::move(f));
  }
  // The UI keeps drawing while the files are scanned; each becomes visible when ready.
  app.loader = std::thread([&app] {
    // Page-level progress of every scan this thread runs.
    inspect::ScanProgress progress([&app](std::uint64_t done, std::uint64_t total, const std::filesystem::path&) {
      app.file_progress = total ? static_cast<float>(done) / static_cast<float>(total) : 1.0f;
    });
    inspect::ServerDictionaries servers;
    std::vector<const inspect::SpaceFile*> system_files;
    for (auto& lf : app.files) {
      auto f = inspect::SpaceFile::Open(lf->path, &app.keys);
      if (!f.ok()) {
        lf->error = f.status().ToString();
      } else {
        lf->file = std::make_unique<inspect::SpaceFile>(std::move(*f));
        lf->names = inspect::DictionaryFor(*lf->file, servers.For(*lf->file));
        lf->summary = inspect::Summarize(*lf->file, &lf->names);
        lf->indexes = inspect::AnalyzeIndexes(*lf->file, &lf->names);
        if (lf->file->kind() == inspect::SpaceKind::kSystem || lf->file->kind() == inspect::SpaceKind::kUndo) {
          system_files.push_back(lf->file.get());
        }
      }
      lf->ready = true;
      app.loaded++;
    }
    if (!system_files.empty()) {
      app.undo = inspect::AnalyzeUndo(system_files, false);
      // The history length of a crashed directory is the files' as they are, not the server's.
      if (auto dir = inspect::DataDirOf(system_files.front()->path())) {
        if (auto stale = inspect::StaleLogFinding(*dir)) {
          app.undo_stale = stale->ToString();
          std::cerr << "strata-viz: warning: " << app.undo_stale << "\n";
        }
      }
    }
    app.finished = true;
  });
}

}  // namespace strata::viz
