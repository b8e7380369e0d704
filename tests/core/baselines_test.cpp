// core/baselines.h: tagging, listing and resolving named baselines in <dir>/.nsys-ai/baselines.json, including a
// file that changed or vanished after it was tagged, and stores that are not ours.
#include "nsys/core/baselines.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace nsys::core {
namespace {

namespace fs = std::filesystem;

class Baselines : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nsys_ai_core_baselines_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    profile_ = (dir_ / "run one.sqlite").string();
    std::ofstream(profile_) << "not really a profile, but a file";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string profile_;
};

TEST_F(Baselines, TagListResolveAndRetag) {
  auto none = ListBaselines(dir_.string());
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->empty());
  auto tagged = TagBaseline(dir_.string(), "good", profile_);
  ASSERT_TRUE(tagged) << tagged.error().message;
  EXPECT_EQ(tagged->path, profile_);
  EXPECT_EQ(tagged->size, static_cast<int64_t>(fs::file_size(profile_)));
  ASSERT_TRUE(TagBaseline(dir_.string(), "a-first.one_", profile_));
  auto list = ListBaselines(dir_.string());
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].name, "a-first.one_");  // sorted by name
  EXPECT_EQ((*list)[1], *tagged);              // read back exactly as written (quotes, spaces)
  auto resolved = ResolveBaseline(dir_.string(), "good");
  ASSERT_TRUE(resolved);
  EXPECT_FALSE(resolved->changed.has_value());
  // Tagging a name again moves it; the list keeps one entry per name.
  const std::string other = (dir_ / "run \"two\".sqlite").string();
  std::ofstream(other) << "x";
  ASSERT_TRUE(TagBaseline(dir_.string(), "good", other));
  list = ListBaselines(dir_.string());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[1].path, other);
}

TEST_F(Baselines, AChangedOrVanishedFileIsReported) {
  ASSERT_TRUE(TagBaseline(dir_.string(), "good", profile_));
  std::ofstream(profile_, std::ios::app) << " and more";
  auto changed = ResolveBaseline(dir_.string(), "good");
  ASSERT_TRUE(changed);
  ASSERT_TRUE(changed->changed.has_value());
  EXPECT_NE(changed->changed->find("changed since it was tagged"), std::string::npos) << *changed->changed;
  fs::remove(profile_);
  auto gone = ResolveBaseline(dir_.string(), "good");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(gone.error().message.find("no longer a file"), std::string::npos);
}

TEST_F(Baselines, BadNamesFilesAndStoresAreRefused) {
  EXPECT_EQ(TagBaseline(dir_.string(), "has space", profile_).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(TagBaseline(dir_.string(), "", profile_).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(TagBaseline(dir_.string(), "x", (dir_ / "missing").string()).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(TagBaseline(dir_.string(), "x", dir_.string()).error().kind, ErrorKind::kNotFound);  // a directory
  auto unknown = ResolveBaseline(dir_.string(), "nope");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
  fs::create_directories(dir_ / ".nsys-ai");
  for (const char* text : {"", "[]", "{\"baselines\": 3}", "{\"baselines\": [{\"name\": \"a\"}]}",
                           "{\"baselines\": [{\"name\": \"a\", \"path\": \"/x\", \"size\": 1.5, \"mtimeNs\": 1}]}",
                           "{\"baselines\": []} trailing", "{\"baselines\": [[[[[[[[[[]]]]]]]]]]}"}) {
    std::ofstream(BaselinesFile(dir_.string())) << text;
    auto list = ListBaselines(dir_.string());
    ASSERT_FALSE(list) << text;
    EXPECT_EQ(list.error().kind, ErrorKind::kInvalidArgument) << text;
    EXPECT_NE(list.error().message.find("is not a baselines file"), std::string::npos) << list.error().message;
  }
}

// `baseline tag` used to write "<dir>/.nsys-ai/baselines.json.<pid>.tmp" through whatever was there, so a link
// planted at that name made it overwrite the link's target. Now the temporary is a fresh random name (O_EXCL,
// O_NOFOLLOW) in .nsys-ai made this user's with mode 0700, and a new baselines.json is 0600.
TEST_F(Baselines, APlantedLinkAtTheOldTemporaryNameIsNeverFollowedAndTheStoreIsPrivate) {
  const fs::path store = dir_ / ".nsys-ai";
  fs::create_directories(store);
  fs::permissions(store, fs::perms::all);  // 0777, as a careless or hostile setup leaves it
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, store / ("baselines.json." + std::to_string(::getpid()) + ".tmp"));
  auto tagged = TagBaseline(dir_.string(), "good", profile_);
  ASSERT_TRUE(tagged) << tagged.error().message;
  std::ifstream in(victim);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "precious");
  EXPECT_EQ(fs::status(store).permissions() & fs::perms::mask, fs::perms::owner_all);
  EXPECT_EQ(fs::symlink_status(BaselinesFile(dir_.string())).type(), fs::file_type::regular);
  EXPECT_EQ(fs::status(BaselinesFile(dir_.string())).permissions() & fs::perms::mask,
            fs::perms::owner_read | fs::perms::owner_write);
  // A file that existed keeps its mode (a team may share it).
  fs::permissions(BaselinesFile(dir_.string()),
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  ASSERT_TRUE(TagBaseline(dir_.string(), "other", profile_));
  EXPECT_EQ(fs::status(BaselinesFile(dir_.string())).permissions() & fs::perms::mask,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  ASSERT_EQ(ListBaselines(dir_.string())->size(), 2u);
  for (const auto& entry : fs::directory_iterator(store)) {  // nothing left behind but the links planted
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "baselines.json" || fs::is_symlink(entry.symlink_status())) << name;
  }
}

}  // namespace
}  // namespace nsys::core
