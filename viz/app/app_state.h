// State of the strata-viz app: the open tablespaces (loaded in a background thread), which
// map is shown, zoom, the selected page, and which panels are open. One struct, as in the
// Dear ImGui examples; each panel draws from it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "inspect/index_report.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "inspect/undo.h"
#include "viz/map_model.h"

namespace strata::viz {

// One tablespace, filled in by the loader thread; `ready` flips once everything is set.
struct LoadedFile {
  std::filesystem::path path;
  std::unique_ptr<inspect::SpaceFile> file;
  inspect::Dictionary names;
  inspect::SpaceSummary summary;
  inspect::IndexesReport indexes;
  std::string error;
  std::atomic<bool> ready{false};
};

struct AppState {
  std::vector<std::unique_ptr<LoadedFile>> files;
  inspect::EncryptionKeys keys;             // --key-file / --keyring: encrypted pages shown decrypted
  std::optional<inspect::UndoReport> undo;  // when a system tablespace is among the files
  // Why the undo figures are stale (the redo log holds changes past its checkpoint: a crash),
  // said above them and on stderr; empty when they are not.
  std::string undo_stale;
  std::atomic<std::size_t> loaded{0};   // files done, for the progress bar
  std::atomic<bool> finished{false};    // everything (undo included) is loaded
  std::atomic<float> file_progress{0};  // share of the current file's pages scanned
  std::thread loader;

  MapKind map = MapKind::kExtents;
  bool shared_scale = true;
  float zoom = 6.0f;  // pixels per cell
  MapModel model;     // rebuilt when the map kind or the loaded set changes
  bool model_dirty = true;
  std::vector<unsigned int> textures;  // one per panel

  // The page the user clicked: (file index, page number).
  std::optional<std::pair<std::size_t, std::uint32_t>> selected;

  bool show_summary = true;
  bool show_btree = true;
  bool show_undo = true;
  bool show_page = true;
  bool show_compare = false;
  std::size_t compare_a = 0, compare_b = 1;  // the files the compare window sets side by side

  bool all_loaded() const { return finished.load(); }
};

// Starts loading every path (data directories expand to their tablespaces) in the background.
void StartLoading(AppState& app, const std::vector<std::filesystem::path>& paths);

}  // namespace strata::viz
