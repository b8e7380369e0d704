// The index kept current one file at a time: editor buffers override the disk, saves and outside changes re-read
// one file, removal; lookups by exact name and by literal prefix; concurrent use.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "nsys/source/annotation_index.h"
#include "source/source_test_util.h"

namespace nsys::testing {
namespace {

TEST(Index, IncrementalUpdatesOfOneFile) {
  TempTree tree;
  const auto a = tree.Write("pkg/a.py", "import nvtx\nwith nvtx.annotate(\"load\"):\n    pass\n");
  const auto b = tree.Write("pkg/b.py", "import nvtx\nnvtx.push_range(f\"step {i}\")\n");
  source::AnnotationIndex index;
  ASSERT_TRUE(index.AddRoot(tree.root().string(), CancelToken()).ok());
  ASSERT_EQ(index.FindByName("load").size(), 1u);
  EXPECT_EQ(index.FindByName("load")[0].line, 1);

  // An open buffer overrides the disk: the name moves to line 3, a new one appears.
  index.SetText(a.string(),
                "import nvtx\n\n\nwith nvtx.annotate(\"load\"):\n    pass\n@nvtx.annotate(\"fresh\")\ndef f(): pass\n");
  ASSERT_EQ(index.FindByName("load").size(), 1u);
  EXPECT_EQ(index.FindByName("load")[0].line, 3);
  EXPECT_EQ(index.FindByName("fresh").size(), 1u);
  // A walk of the root again keeps the buffer, not the disk.
  ASSERT_TRUE(index.AddRoot(tree.root().string(), CancelToken()).ok());
  EXPECT_EQ(index.FindByName("fresh").size(), 1u);
  // Refresh from disk does not replace an open buffer.
  index.Refresh(a.string());
  EXPECT_EQ(index.FindByName("fresh").size(), 1u);
  // Closing the buffer reads the disk again.
  index.CloseText(a.string());
  EXPECT_TRUE(index.FindByName("fresh").empty());
  EXPECT_EQ(index.FindByName("load")[0].line, 1);

  // The disk changes outside the editor: Refresh re-reads that file only.
  tree.Write("pkg/a.py", "import nvtx\nnvtx.push_range(\"renamed\")\n");
  index.Refresh(a.string());
  EXPECT_TRUE(index.FindByName("load").empty());
  EXPECT_EQ(index.FindByName("renamed").size(), 1u);

  // Prefix matches: f"step {i}" gives "step " and matches every "step N".
  ASSERT_EQ(index.FindByName("step 12").size(), 1u);
  EXPECT_TRUE(index.FindByName("step 12")[0].prefix_only);
  EXPECT_TRUE(index.FindByName("ste").empty());
  EXPECT_TRUE(index.FindByName("other").empty());

  // A file created outside the editor is indexed by Refresh, unless .gitignore excludes it.
  tree.Write(".gitignore", "scratch/\n");
  const auto created = tree.Write("pkg/new.cu", "void f() { nvtxRangePushA(\"created\"); }\n");
  const auto scratch = tree.Write("scratch/s.cu", "void f() { nvtxRangePushA(\"scratch\"); }\n");
  index.Refresh(created.string());
  index.Refresh(scratch.string());
  EXPECT_EQ(index.FindByName("created").size(), 1u);
  EXPECT_TRUE(index.FindByName("scratch").empty());
  index.Remove(created.string());

  // Removal, by name and after the file is deleted.
  index.Remove(b.string());
  EXPECT_TRUE(index.FindByName("step 12").empty());
  std::filesystem::remove(a);
  index.Refresh(a.string());
  EXPECT_TRUE(index.FindByName("renamed").empty());
  EXPECT_EQ(index.size(), 0u);
  EXPECT_TRUE(index.Files().empty());
}

TEST(Index, BuffersOutsideEveryRootAndInFile) {
  source::AnnotationIndex index;
  index.SetText("/tmp/nsys-ai-unsaved/x.cu", "void k() { NVTX3_FUNC_RANGE(); nvtxRangePushA(\"a\"); }\n");
  const auto in_file = index.InFile("/tmp/nsys-ai-unsaved/./x.cu");  // paths are normalised
  ASSERT_EQ(in_file.size(), 2u);
  EXPECT_EQ(in_file[0].name, "k");
  EXPECT_EQ(in_file[1].name, "a");
  index.SetText("/tmp/nsys-ai-unsaved/x.cu", "");
  EXPECT_TRUE(index.InFile("/tmp/nsys-ai-unsaved/x.cu").empty());
}

TEST(Index, RemoveRootForgetsItsFilesButNotOpenBuffers) {
  TempTree tree;
  tree.Write("a.py", "nvtx.push_range(\"disk\")\n");
  const auto b = tree.Write("b.py", "");
  source::AnnotationIndex index;
  ASSERT_TRUE(index.AddRoot(tree.root().string(), CancelToken()).ok());
  index.SetText(b.string(), "nvtx.push_range(\"buffer\")\n");
  index.RemoveRoot(tree.root().string());
  EXPECT_TRUE(index.FindByName("disk").empty());
  EXPECT_EQ(index.FindByName("buffer").size(), 1u);
}

// A root whose walk stopped at the file limit is remembered, so that every plan made from the index can say so (a plan
// from a partial index must not read as complete); a later walk that fits, or removing the root, forgets it.
TEST(Index, RootsCutShortByTheFileLimitAreRemembered) {
  TempTree tree;
  for (int i = 0; i < 3; ++i) tree.Write("f" + std::to_string(i) + ".py", "");
  source::AnnotationIndex index(source::IndexLimits{.max_files = 2});
  auto stats = index.AddRoot(tree.root().string(), CancelToken());
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(stats->truncated);
  EXPECT_EQ(index.TruncatedRoots(), std::vector<std::string>{source::NormalPath(tree.root().string())});
  std::filesystem::remove(tree.root() / "f2.py");
  ASSERT_TRUE(index.AddRoot(tree.root().string(), CancelToken()).ok());
  EXPECT_TRUE(index.TruncatedRoots().empty());
  tree.Write("f2.py", "");
  ASSERT_TRUE(index.AddRoot(tree.root().string(), CancelToken()).ok());
  EXPECT_EQ(index.TruncatedRoots().size(), 1u);
  index.RemoveRoot(tree.root().string());
  EXPECT_TRUE(index.TruncatedRoots().empty());
}

TEST(Index, ConcurrentEditsAndLookupsStayConsistent) {
  source::AnnotationIndex index;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&index, t] {
      const std::string path = "/tmp/nsys-ai-concurrent/" + std::to_string(t) + ".py";
      for (int i = 0; i < 200; ++i) {
        index.SetText(path, "nvtx.push_range(\"shared\")\nnvtx.push_range(\"own" + std::to_string(t) + "\")\n");
        (void)index.FindByName("shared");
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(index.FindByName("shared").size(), 4u);
  EXPECT_EQ(index.size(), 8u);
}

}  // namespace
}  // namespace nsys::testing
