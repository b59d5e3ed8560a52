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

struct ViewerOptions {
  std::vector<std::filesystem::path> paths;
  std::string screenshot, map = "extents";
  int frames = 3;
  std::optional<std::uint32_t> page;
  bool compare = false;
  std::string key_file, filekey, keyring;
};

// The command line, or the exit status when the viewer should not start (said, with the usage
// where it helps).
std::optional<int> ParseArgs(int argc, char** argv, ViewerOptions& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::string* text = a == "--screenshot" ? &o.screenshot
                        : a == "--map"      ? &o.map
                        : a == "--key-file" ? &o.key_file
                        : a == "--filekey"  ? &o.filekey
                        : a == "--keyring"  ? &o.keyring
                                            : nullptr;
    const bool takes_value = text || a == "--frames" || a == "--page";
    std::optional<std::string> v = takes_value ? value() : std::nullopt;
    if (takes_value && !v) {
      std::cerr << "strata-viz: " << a << " needs a value\n";
      Usage(std::cerr);
      return 2;
    }
    if (a == "--help" || a == "-h") {
      Usage(std::cout);
      return 0;
    } else if (text) {
      *text = *v;
    } else if (a == "--frames") {
      o.frames = std::max(1, std::atoi(v->c_str()));
    } else if (a == "--compare") {
      o.compare = true;
    } else if (a == "--page") {
      char* end = nullptr;
      const unsigned long n = std::strtoul(v->c_str(), &end, 10);
      if (v->empty() || *end || n > 0xFFFFFFFEul) {
        std::cerr << "strata-viz: --page needs a page number, not '" << *v << "'\n";
        return 2;
      }
      o.page = static_cast<std::uint32_t>(n);
    } else if (a.rfind("-", 0) == 0) {
      std::cerr << "strata-viz: unknown option " << a << "\n";
      Usage(std::cerr);
      return 2;
    } else {
      o.paths.emplace_back(a);
    }
  }
  return std::nullopt;
}

// The keys given, and every path readable: a path that cannot be read is said now, not shown
// as an empty window.
std::optional<int> CheckInputs(const ViewerOptions& o, strata::inspect::EncryptionKeys& keys) {
  for (const auto& st :
       {o.key_file.empty() ? strata::ondisk::Status::Ok()
                           : strata::inspect::LoadMariaDbKeyFile(o.key_file, o.filekey, &keys),
        o.keyring.empty() ? strata::ondisk::Status::Ok() : strata::inspect::LoadMySqlKeyring(o.keyring, &keys)}) {
    if (!st.ok()) {
      std::cerr << "strata-viz: " << st.message() << "\n";
      return 1;
    }
  }
  for (const auto& p : o.paths) {
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
  return std::nullopt;
}

// The window with an OpenGL 3 context and Dear ImGui on it, or null.
GLFWwindow* OpenWindow() {
  glfwSetErrorCallback(
      [](int code, const char* what) { std::fprintf(stderr, "strata-viz: GLFW error %d: %s\n", code, what); });
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "strata-viz", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // a viewer: no layout file next to the user's data
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  return window;
}

struct Panels {
  strata::viz::MapPanel map;
  strata::viz::SummaryPanel summary;
  strata::viz::BtreePanel btree;
  strata::viz::UndoPanel undo;
  strata::viz::PagePanel page;
  strata::viz::ComparePanel compare;
};

// One frame: the map on the left two thirds, the panels stacked on the right, the page panel
// over the map, the compare window over the right column.
void DrawFrame(GLFWwindow* window, strata::viz::AppState& app, Panels& panels) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  auto place = [](float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_FirstUseEver);
  };
  place(0, 0, size.x * 0.62f, size.y);
  panels.map.Draw(app);
  const float x = size.x * 0.62f, w = size.x - x;
  place(x, 0, w, size.y * 0.34f);
  if (app.show_summary) panels.summary.Draw(app, &app.show_summary);
  place(x, size.y * 0.34f, w, size.y * 0.33f);
  if (app.show_btree) panels.btree.Draw(app, &app.show_btree);
  place(x, size.y * 0.67f, w, size.y * 0.33f);
  if (app.show_undo) panels.undo.Draw(app, &app.show_undo);
  place(size.x * 0.1f, size.y * 0.5f, size.x * 0.5f, size.y * 0.45f);
  if (app.show_page) panels.page.Draw(app, &app.show_page);
  place(x, 0, w, size.y);
  if (app.show_compare) panels.compare.Draw(app, &app.show_compare);
  ImGui::Render();
  int fw, fh;
  glfwGetFramebufferSize(window, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.12f, 0.12f, 0.14f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void CloseWindow(GLFWwindow* window, strata::viz::AppState& app) {
  if (app.loader.joinable()) app.loader.join();
  if (!app.textures.empty()) glDeleteTextures(static_cast<GLsizei>(app.textures.size()), app.textures.data());
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
}

int main(int argc, char** argv) {
  ViewerOptions o;
  if (auto exit = ParseArgs(argc, argv, o)) return *exit;
  auto kind = strata::viz::ParseMapKind(o.map);
  if (o.paths.empty() || !kind.ok()) {
    std::cerr << "strata-viz: " << (o.paths.empty() ? "missing PATH" : kind.status().message()) << "\n";
    Usage(std::cerr);
    return 2;
  }
  if (o.compare && o.paths.size() < 2) {
    std::cerr << "strata-viz: --compare needs two tablespaces\n";
    Usage(std::cerr);
    return 2;
  }
  strata::inspect::EncryptionKeys keys;
  if (auto exit = CheckInputs(o, keys)) return *exit;
  GLFWwindow* window = OpenWindow();
  if (!window) return 1;

  strata::viz::AppState app;
  app.keys = std::move(keys);
  app.map = *kind;
  if (o.compare) {  // the compare window takes the right column; the others are a click away
    app.show_compare = true;
    app.show_summary = app.show_btree = app.show_undo = false;
  }
  app.shared_scale = OneDataDirectory(o.paths);
  strata::viz::StartLoading(app, o.paths);
  if (!o.screenshot.empty()) app.loader.join();  // a screenshot shows the loaded files
  if (o.page) {
    app.selected = std::pair<std::size_t, std::uint32_t>{0, *o.page};
    app.show_page = true;
  }
  Panels panels;
  bool ok = true;
  for (int frame = 1; !glfwWindowShouldClose(window); ++frame) {
    glfwPollEvents();
    DrawFrame(window, app, panels);
    if (!o.screenshot.empty() && frame >= o.frames) {
      ok = Screenshot(window, o.screenshot);
      break;
    }
    glfwSwapBuffers(window);
  }
  CloseWindow(window, app);
  return ok ? 0 : 1;
}
