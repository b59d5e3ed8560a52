#include "engine/env.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/fault_injection_env.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

std::vector<std::byte> Bytes(std::size_t n, int seed) {
  std::vector<std::byte> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::byte((i * 31 + seed) & 0xFF);
  return b;
}

std::vector<std::byte> ReadAll(Env* env, const std::filesystem::path& p) {
  auto f = env->OpenFile(p, OpenMode::kExisting);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  auto size = (*f)->Size();
  std::vector<std::byte> out(*size);
  EXPECT_TRUE((*f)->Read(0, out).ok());
  return out;
}

TEST(PosixEnvTest, WriteReadResizeAndErrorsNameTheFile) {
  testing::TempDir tmp;
  Env* env = Env::Default();
  const auto p = tmp.path() / "a.ibd";
  auto f = env->OpenFile(p, OpenMode::kCreateNew);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  auto data = Bytes(16384, 1);
  ASSERT_TRUE((*f)->Write(16384, data).ok());
  EXPECT_EQ(*(*f)->Size(), 32768u);
  std::vector<std::byte> back(16384);
  ASSERT_TRUE((*f)->Read(16384, back).ok());
  EXPECT_EQ(back, data);
  ASSERT_TRUE((*f)->Resize(65536).ok());
  ASSERT_TRUE((*f)->Read(40000, std::span(back).first(100)).ok());
  EXPECT_EQ(back[0], std::byte{0});  // grown with zeros
  Status past = (*f)->Read(65500, back);
  EXPECT_FALSE(past.ok());
  EXPECT_NE(past.message().find("a.ibd"), std::string::npos);
  EXPECT_NE(past.message().find("offset 65500"), std::string::npos);
  EXPECT_TRUE((*f)->Sync().ok());
  EXPECT_FALSE(env->OpenFile(p, OpenMode::kCreateNew).ok());  // exists already
  EXPECT_FALSE(env->OpenFile(tmp.path() / "missing", OpenMode::kExisting).ok());
}

TEST(PosixEnvTest, SecondLockOnADirectoryFailsWithAClearMessage) {
  testing::TempDir tmp;
  Env* env = Env::Default();
  auto first = env->LockFile(tmp.path() / "strata.lock");
  ASSERT_TRUE(first.ok());
  auto second = env->LockFile(tmp.path() / "strata.lock");
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("locked by another process"), std::string::npos);
  first->reset();
  EXPECT_TRUE(env->LockFile(tmp.path() / "strata.lock").ok());  // released with the first
}

std::size_t OpenDescriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// More files than the open-files limit: each is closed and reopened behind the caller's back,
// its writes kept and synced, and a file replaced while closed is an error, not another file.
TEST(PosixEnvTest, FilesBeyondTheOpenFilesLimitAreClosedAndReopened) {
  testing::TempDir tmp;
  Env* env = Env::Default();
  env->SetOpenFilesLimit(4);
  const std::size_t before = OpenDescriptors();
  std::vector<std::unique_ptr<File>> files;
  for (int i = 0; i < 40; ++i) {
    auto f = env->OpenFile(tmp.path() / ("t" + std::to_string(i) + ".ibd"), OpenMode::kCreateNew);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    ASSERT_TRUE((*f)->Resize(16384).ok());
    ASSERT_TRUE((*f)->Write(100, Bytes(1000, i)).ok());  // unsynced when the next opens close it
    files.push_back(std::move(*f));
  }
  EXPECT_LE(OpenDescriptors(), before + 4);
  for (int round = 0; round < 3; ++round) {
    for (int i = 39; i >= 0; --i) {  // against the LRU order: every use reopens
      std::vector<std::byte> back(1000);
      ASSERT_TRUE(files[i]->Read(100, back).ok());
      EXPECT_EQ(back, Bytes(1000, i)) << i;
      ASSERT_TRUE(files[i]->Write(2000 + round, Bytes(1, round)).ok());
      ASSERT_TRUE(files[i]->Sync().ok());
      EXPECT_EQ(*files[i]->Size(), 16384u);
    }
    EXPECT_LE(OpenDescriptors(), before + 4);
  }
  for (int i = 0; i < 40; ++i) EXPECT_EQ(ReadAll(env, files[i]->path())[2002], Bytes(1, 2)[0]) << i;

  // t39.ibd is closed by now (the last round used it first); another file takes its name (the
  // old one moved aside: a removed file's inode number may be handed to the new one).
  std::filesystem::rename(files[39]->path(), tmp.path() / "moved-aside");
  { std::ofstream(files[39]->path()) << "another file"; }
  std::vector<std::byte> back(10);
  Status replaced = files[39]->Read(0, back);
  EXPECT_FALSE(replaced.ok());
  EXPECT_NE(replaced.message().find("t39.ibd: was removed or replaced while closed"), std::string::npos)
      << replaced.ToString();
  files.clear();
  EXPECT_EQ(OpenDescriptors(), before);
  env->SetOpenFilesLimit(512);
}

TEST(FaultInjectionEnvTest, CrashLosesExactlyTheUnsyncedWrites) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  const auto p = tmp.path() / "t.ibd";
  auto f = env.OpenFile(p, OpenMode::kCreate);
  ASSERT_TRUE(f.ok());
  auto a = Bytes(16384, 1), b = Bytes(16384, 2), c = Bytes(16384, 3);
  ASSERT_TRUE((*f)->Write(0, a).ok());
  ASSERT_TRUE((*f)->Sync().ok());
  ASSERT_TRUE((*f)->Write(0, b).ok());      // overwrite, unsynced
  ASSERT_TRUE((*f)->Write(16384, c).ok());  // append, unsynced
  ASSERT_TRUE((*f)->Resize(100000).ok());   // grow, unsynced
  f->reset();
  ASSERT_TRUE(env.Crash().ok());
  EXPECT_EQ(ReadAll(&env, p), a);  // back to the synced page, size included
}

TEST(FaultInjectionEnvTest, NeverSyncedFileIsEmptyAfterACrash) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  auto f = env.OpenFile(tmp.path() / "new.ibd", OpenMode::kCreateNew);
  ASSERT_TRUE((*f)->Write(0, Bytes(4096, 9)).ok());
  f->reset();
  ASSERT_TRUE(env.Crash().ok());
  EXPECT_TRUE(ReadAll(&env, tmp.path() / "new.ibd").empty());
}

TEST(FaultInjectionEnvTest, TornWriteKeepsOnlyItsHeadAndStopsTheMachine) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  const auto p = tmp.path() / "t.ibd";
  auto f = env.OpenFile(p, OpenMode::kCreate);
  auto a = Bytes(16384, 1), b = Bytes(16384, 2);
  ASSERT_TRUE((*f)->Write(0, a).ok());
  ASSERT_TRUE((*f)->Sync().ok());
  env.TearNextWrite(512);
  ASSERT_TRUE((*f)->Write(0, b).ok());  // the OS accepted it; only 512 bytes made it
  auto torn = ReadAll(&env, p);
  EXPECT_TRUE(std::equal(torn.begin(), torn.begin() + 512, b.begin()));
  EXPECT_TRUE(std::equal(torn.begin() + 512, torn.end(), a.begin() + 512));
  EXPECT_FALSE((*f)->Write(0, a).ok());  // the machine is down
  EXPECT_FALSE((*f)->Sync().ok());
  f->reset();
  ASSERT_TRUE(env.Crash().ok());
  EXPECT_EQ(ReadAll(&env, p), a);
}

TEST(FaultInjectionEnvTest, FailedSyncAndFullDiskAreErrorsNotSilence) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  auto f = env.OpenFile(tmp.path() / "t.ibd", OpenMode::kCreate);
  ASSERT_TRUE((*f)->Write(0, Bytes(100, 1)).ok());
  env.SetSyncFails(true);
  Status s = (*f)->Sync();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fdatasync"), std::string::npos);
  env.SetSyncFails(false);
  env.SetDiskFull(true);
  Status w = (*f)->Write(100, Bytes(100, 2));
  EXPECT_NE(w.message().find("No space left on device"), std::string::npos);
  EXPECT_FALSE((*f)->Resize(1 << 20).ok());
  env.SetDiskFull(false);
  EXPECT_TRUE((*f)->Sync().ok());
  EXPECT_EQ(env.syncs(), 1u);
}

}  // namespace
}  // namespace strata::engine
