#include "viz/raster.h"

#include <png.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "viz/output_file.h"

namespace strata::viz {

Raster::Raster(int width, int height, Rgb bg) : w_(std::max(width, 1)), h_(std::max(height, 1)) {
  px_.resize(static_cast<std::size_t>(w_) * h_ * 3);
  Fill(0, 0, w_, h_, bg);
}

void Raster::Fill(int x, int y, int w, int h, Rgb c) {
  const int x0 = std::max(x, 0), y0 = std::max(y, 0), x1 = std::min(x + w, w_), y1 = std::min(y + h, h_);
  for (int yy = y0; yy < y1; ++yy) {
    std::uint8_t* row = px_.data() + (static_cast<std::size_t>(yy) * w_ + x0) * 3;
    for (int xx = x0; xx < x1; ++xx, row += 3) row[0] = c.r, row[1] = c.g, row[2] = c.b;
  }
}

void Raster::Blend(int x, int y, Rgb c, double a) {
  if (x < 0 || y < 0 || x >= w_ || y >= h_ || a <= 0) return;
  std::uint8_t* p = px_.data() + (static_cast<std::size_t>(y) * w_ + x) * 3;
  auto mix = [&](std::uint8_t dst, std::uint8_t src) {
    return static_cast<std::uint8_t>(dst + (src - dst) * std::min(a, 1.0) + 0.5);
  };
  p[0] = mix(p[0], c.r), p[1] = mix(p[1], c.g), p[2] = mix(p[2], c.b);
}

Rgb Raster::At(int x, int y) const {
  const std::uint8_t* p = px_.data() + (static_cast<std::size_t>(y) * w_ + x) * 3;
  return {p[0], p[1], p[2]};
}

namespace {
ondisk::Status WritePngTo(const Raster& r, FILE* f, const std::filesystem::path& path);
}  // namespace

ondisk::Status WritePng(const Raster& r, const std::filesystem::path& path) {
  return WriteFileAtomically(path, [&](FILE* f) { return WritePngTo(r, f, path); });
}

namespace {
ondisk::Status WritePngTo(const Raster& r, FILE* f, const std::filesystem::path& path) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return ondisk::Status::IoError("libpng: out of memory");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return ondisk::Status::IoError(path.string() + ": PNG write failed (disk full?)");
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, r.width(), r.height(), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < r.height(); ++y) {
    png_write_row(png, const_cast<png_bytep>(r.pixels().data() + static_cast<std::size_t>(y) * r.width() * 3));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return ondisk::Status::Ok();
}
}  // namespace

ondisk::Result<Raster> ReadPng(const std::filesystem::path& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) {
    return ondisk::Status::IoError(path.string() + ": " + image.message);
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<std::uint8_t> buf(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, buf.data(), 0, nullptr)) {
    return ondisk::Status::IoError(path.string() + ": " + image.message);
  }
  Raster r(static_cast<int>(image.width), static_cast<int>(image.height), {});
  for (int y = 0; y < r.height(); ++y) {
    for (int x = 0; x < r.width(); ++x) {
      const std::uint8_t* p = buf.data() + (static_cast<std::size_t>(y) * r.width() + x) * 3;
      r.Fill(x, y, 1, 1, {p[0], p[1], p[2]});
    }
  }
  return r;
}

}  // namespace strata::viz
