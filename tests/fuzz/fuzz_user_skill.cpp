// libFuzzer target: arbitrary bytes as the text of a `*.skill.json` → skills::ParseUserSkill (the JSON parse and every
// check the loader makes) and skills::CheckReadOnlySql on the raw bytes. Checks that nothing throws or crashes, that a
// refusal names the file, and that an accepted skill is consistent (a snake_case name, a description, unique
// argument names that are not the common ones).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_user_skill
//   mkdir -p /tmp/fuzz_user_skill && ./build-asan/tests/fuzz/fuzz_user_skill -runs=200000 -max_len=4096 \
//       /tmp/fuzz_user_skill tests/fuzz/corpus_user_skill
// New inputs go to the first folder; the seeds stay as they are.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "nsys/skills/registry.h"
#include "nsys/skills/user_skills.h"

namespace {

constexpr const char* kOrigin = "fuzz.skill.json";

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_user_skill: %s\n", what.c_str());
  std::abort();
}

bool IsSnakeCase(const std::string& s) {
  if (s.empty() || s.size() > 64 || s[0] < 'a' || s[0] > 'z') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

void CheckAccepted(const nsys::skills::Skill& skill) {
  if (!IsSnakeCase(skill.name())) Fail("accepted a skill whose name is not snake_case: " + skill.name());
  if (skill.description().empty()) Fail("accepted a skill without a description");
  if (!nsys::skills::IsUserSkill(skill) || nsys::skills::UserSkillOrigin(skill) != kOrigin)
    Fail("an accepted skill does not know its origin");
  std::set<std::string> names;
  for (const auto& spec : nsys::skills::CommonArgs()) names.insert(spec.name);
  for (const auto& arg : skill.args()) {
    if (!IsSnakeCase(arg.name)) Fail("accepted an argument whose name is not snake_case: " + arg.name);
    if (!names.insert(arg.name).second) Fail("accepted a duplicate or reserved argument name: " + arg.name);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = nsys::skills::ParseUserSkill(text, kOrigin);
  if (parsed) {
    CheckAccepted(**parsed);
  } else if (parsed.error().message.rfind(std::string(kOrigin) + ": ", 0) != 0) {
    Fail("a refusal does not name the file: " + parsed.error().message);
  }
  (void)nsys::skills::CheckReadOnlySql(text);
  return 0;
}
