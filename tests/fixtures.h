#pragma once
// Where the shared fixtures are, and a skip when they are absent (CI always has them; a bare clone may not).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace nsys::testing {

inline std::string FixturesDir() {
  if (const char* env = std::getenv("NSYS_AI_FIXTURES_DIR")) return env;
  return NSYS_AI_FIXTURES_DIR;
}

inline std::string Fixture(const std::string& name) {
  return (std::filesystem::path(FixturesDir()) / name).string();
}

inline bool HaveFixtures() {
  return std::filesystem::exists(Fixture("h100_2gpu_1s.sqlite"));
}

}  // namespace nsys::testing

// Skips the current test, saying why, when ../shared/fixtures is absent.
#define NSYS_REQUIRE_FIXTURES()                                                         \
  do {                                                                                  \
    if (!::nsys::testing::HaveFixtures())                                               \
      GTEST_SKIP() << "shared fixtures not found at " << ::nsys::testing::FixturesDir() \
                   << " (set NSYS_AI_FIXTURES_DIR); skipping a test that needs them";   \
  } while (0)
