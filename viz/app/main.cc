// strata-viz: an interactive viewer of tablespaces (Dear ImGui + GLFW + OpenGL 3).
//
//   strata-viz PATH... [--map extents|lsn|types|index] [--page N] [--compare] [--screenshot OUT.png --frames N]
//              [--key-file FILE [--filekey SECRET]] [--keyring FILE]
//
// The main loop follows Dear ImGui's example_glfw_opengl3 and shuts down in reverse order.
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>
#include <iostream>
#include <string>

#include "inspect/sys_dictionary.h"
#include "viz/app/app_state.h"
#include "viz/app/panels.h"
#include "viz/raster.h"

namespace {

void Usage(std::ostream& out) {
  out << "Usage: strata-viz PATH... [--map extents|lsn|types|index] [--page N] [--compare] [--screenshot OUT.png "
         "--frames N]\n\n"
         "Opens tablespaces (.ibd, ibdata1, undo files) or data directories. Hover a page for its header,\n"
         "click it for the page panel (--page N opens it on page N of the first file); Ctrl+wheel zooms, right-drag\n"
         "pans. --compare sets the first two files side by side, index by index (the same rows written by\n"
         "Strata and by MariaDB, say), with their leaf-fill histograms on one scale.\n"
         "--screenshot renders N frames (default 3), writes the window as PNG and exits.\n"
         "Encrypted tablespaces are shown decrypted with --key-file FILE [--filekey SECRET] (MariaDB's\n"
         "file_key_management) or --keyring FILE (MySQL's keyring_file).\n";
}

// Reads the back buffer into a PNG (rows come bottom-up from OpenGL).
bool Screenshot(GLFWwindow* window, const std::string& path) {
  int w, h;
  glfwGetFramebufferSize(window, &w, &h);
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  strata::viz::Raster r(w, h, {});
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* p = px.data() + (static_cast<std::size_t>(h - 1 - y) * w + x) * 3;
      r.Fill(x, y, 1, 1, {p[0], p[1], p[2]});
    }
  }
  auto s = strata::viz::WritePng(r, path);
  if (!s.ok()) std::cerr << "strata-viz: " << s.ToString() << "\n";
  return s.ok();
}

}  // namespace

// Whether every path is of one data directory (a directory given, or files whose ibdata1, else
// whose directory, is the same): only then do their LSNs share a scale by default.
bool OneDataDirectory(const std::vector<std::filesystem::path>& paths) {
  std::optional<std::filesystem::path> dir;
  for (const auto& p : paths) {
    std::error_code ec;
    std::filesystem::path d =
        std::filesystem::is_directory(p, ec) ? std::filesystem::absolute(p, ec) : std::filesystem::path();
    if (d.empty()) {
      const auto system = strata::inspect::FindSystemTablespace(p);
      d = system ? system->parent_path() : std::filesystem::absolute(p, ec).parent_path();
    }
    if (dir && *dir != d) return false;
    dir = d;
  }
  return true;
}

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> paths;
  std::string screenshot, map = "extents";
  int frames = 3;
  std::optional<std::uint32_t> page;
  bool compare = false;
  std::string key_file, filekey, keyring;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "strata-viz: " << a << " needs a value\n";
        Usage(std::cerr);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      Usage(std::cout);
      return 0;
    } else if (a == "--screenshot") {
      screenshot = value();
    } else if (a == "--frames") {
      frames = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--compare") {
      compare = true;
    } else if (a == "--map") {
      map = value();
    } else if (a == "--key-file") {
      key_file = value();
    } else if (a == "--filekey") {
      filekey = value();
    } else if (a == "--keyring") {
      keyring = value();
    } else if (a == "--page") {
      const std::string v = value();
      char* end = nullptr;
      const unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end || n > 0xFFFFFFFEul) {
        std::cerr << "strata-viz: --page needs a page number, not '" << v << "'\n";
        return 2;
      }
      page = static_cast<std::uint32_t>(n);
    } else if (a.rfind("-", 0) == 0) {
      std::cerr << "strata-viz: unknown option " << a << "\n";
      Usage(std::cerr);
      return 2;
    } else {
      paths.emplace_back(a);
    }
  }
  auto kind = strata::viz::ParseMapKind(map);
  if (paths.empty() || !kind.ok()) {
    std::cerr << "strata-viz: " << (paths.empty() ? "missing PATH" : kind.status().message()) << "\n";
    Usage(std::cerr);
    return 2;
  }
  if (compare && paths.size() < 2) {
    std::cerr << "strata-viz: --compare needs two tablespaces\n";
    Usage(std::cerr);
    return 2;
  }

  strata::inspect::EncryptionKeys keys;
  for (const auto& st :
       {key_file.empty() ? strata::ondisk::Status::Ok() : strata::inspect::LoadMariaDbKeyFile(key_file, filekey, &keys),
        keyring.empty() ? strata::ondisk::Status::Ok() : strata::inspect::LoadMySqlKeyring(keyring, &keys)}) {
    if (!st.ok()) {
      std::cerr << "strata-viz: " << st.message() << "\n";
      return 1;
    }
  }

  // A path that cannot be read is said now, not shown as an empty window.
  for (const auto& p : paths) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      std::cerr << "strata-viz: " << p.string() << ": not found\n";
      return 1;
    }
    if (std::filesystem::is_regular_file(p, ec)) {
      if (auto f = strata::inspect::SpaceFile::Open(p, &keys); !f.ok()) {
        std::cerr << "strata-viz: " << p.string() << ": " << f.status().ToString() << "\n";
        return 1;
      }
    }
  }

  glfwSetErrorCallback(
      [](int code, const char* what) { std::fprintf(stderr, "strata-viz: GLFW error %d: %s\n", code, what); });
  if (!glfwInit()) return 1;
  const char* glsl_version = "#version 130";
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "strata-viz", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // a viewer: no layout file next to the user's data
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init(glsl_version);

  strata::viz::AppState app;
  app.keys = std::move(keys);
  strata::viz::MapPanel map_panel;
  strata::viz::SummaryPanel summary_panel;
  strata::viz::BtreePanel btree_panel;
  strata::viz::UndoPanel undo_panel;
  strata::viz::PagePanel page_panel;
  strata::viz::ComparePanel compare_panel;
  app.map = *kind;
  if (compare) {  // the compare window takes the right column; the others are a click away
    app.show_compare = true;
    app.show_summary = app.show_btree = app.show_undo = false;
  }
  app.shared_scale = OneDataDirectory(paths);
  strata::viz::StartLoading(app, paths);
  if (!screenshot.empty()) app.loader.join();  // a screenshot shows the loaded files
  if (page) {
    app.selected = std::pair<std::size_t, std::uint32_t>{0, *page};
    app.show_page = true;
  }

  int frame = 0;
  bool ok = true;
  while (!glfwWindowShouldClose(window)) {
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();

    // Layout: the map on the left two thirds, panels stacked on the right.
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(size.x * 0.62f, size.y), ImGuiCond_FirstUseEver);
    map_panel.Draw(app);
    const float x = size.x * 0.62f, w = size.x - x;
    ImGui::SetNextWindowPos(ImVec2(x, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, size.y * 0.34f), ImGuiCond_FirstUseEver);
    if (app.show_summary) summary_panel.Draw(app, &app.show_summary);
    ImGui::SetNextWindowPos(ImVec2(x, size.y * 0.34f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, size.y * 0.33f), ImGuiCond_FirstUseEver);
    if (app.show_btree) btree_panel.Draw(app, &app.show_btree);
    ImGui::SetNextWindowPos(ImVec2(x, size.y * 0.67f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, size.y * 0.33f), ImGuiCond_FirstUseEver);
    if (app.show_undo) undo_panel.Draw(app, &app.show_undo);
    ImGui::SetNextWindowPos(ImVec2(size.x * 0.1f, size.y * 0.5f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(size.x * 0.5f, size.y * 0.45f), ImGuiCond_FirstUseEver);
    if (app.show_page) page_panel.Draw(app, &app.show_page);
    ImGui::SetNextWindowPos(ImVec2(x, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, size.y), ImGuiCond_FirstUseEver);
    if (app.show_compare) compare_panel.Draw(app, &app.show_compare);

    ImGui::Render();
    int fw, fh;
    glfwGetFramebufferSize(window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.12f, 0.12f, 0.14f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (!screenshot.empty() && ++frame >= frames) {
      ok = Screenshot(window, screenshot);
      break;
    }
    glfwSwapBuffers(window);
  }

  if (app.loader.joinable()) app.loader.join();
  if (!app.textures.empty()) glDeleteTextures(static_cast<GLsizei>(app.textures.size()), app.textures.data());
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return ok ? 0 : 1;
}
