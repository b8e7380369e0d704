#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nsys/engine/model.h"

namespace nsys::engine {
namespace {

TEST(StringPool, InternsOnce) {
  StringPool pool;
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.view(0), "");
  EXPECT_EQ(pool.intern(""), 0u);
  const StrId a = pool.intern("aten::mm");
  const StrId b = pool.intern("aten::add");
  EXPECT_NE(a, b);
  EXPECT_EQ(pool.intern(std::string("aten::mm")), a);
  EXPECT_EQ(pool.view(a), "aten::mm");
  EXPECT_EQ(pool.view(b), "aten::add");
  EXPECT_EQ(pool.find("aten::add"), b);
  EXPECT_FALSE(pool.find("aten::sub").has_value());
  EXPECT_EQ(pool.view(12345), "");  // unknown ids read as empty
  EXPECT_EQ(pool.size(), 3u);
}

TEST(StringPool, ViewsStayValidWhileOthersIntern) {
  StringPool pool;
  const StrId first = pool.intern("first");
  const std::string_view first_view = pool.view(first);
  std::vector<std::thread> threads;
  std::atomic<bool> mismatch{false};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, &mismatch, t] {
      for (int i = 0; i < 20000; ++i) {
        const std::string s = "t" + std::to_string(t % 2) + "-" + std::to_string(i);  // threads 0/2 and 1/3 collide
        const StrId id = pool.intern(s);
        if (pool.view(id) != s) mismatch = true;
      }
    });
  }
  // A reader that only views ids it already has, with no lock, while the pool grows past many segments.
  for (int i = 0; i < 100000; ++i)
    if (pool.view(first) != "first") mismatch = true;
  for (auto& th : threads) th.join();
  EXPECT_FALSE(mismatch);
  EXPECT_EQ(pool.size(), 1u + 1u + 2u * 20000u);
  EXPECT_EQ(first_view.data(), pool.view(first).data());  // never moved
}

}  // namespace
}  // namespace nsys::engine
