// libFuzzer target: the input is a SQLite file (mutated from the small Nsight exports in profile_corpus/), written
// to a temp file and opened read-only the way the server opens a user's profile: Profile::Open, Require(every
// table), then every built-in skill (default arguments) over what loaded. Checks that nothing crashes or trips the
// sanitizers, that memory follows the file (not ids or spans read from it), and that every loaded row obeys the
// engine's row rule.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_profile
//   mkdir -p /tmp/fuzz_profile_new
//   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ./build-asan/tests/fuzz/fuzz_profile -runs=5000 \
//       -rss_limit_mb=2048 -timeout=30 /tmp/fuzz_profile_new tests/fuzz/profile_corpus
// (new inputs go to the first directory, so the seeds stay as committed; UBSan only reports unless told to halt).
// Regenerate the seeds with tests/fuzz/make_profile_corpus.sh.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"

namespace {

std::string& InputPath() {
  static std::string path;
  return path;
}

bool WriteInput(const uint8_t* data, size_t size) {
  const int fd = open(InputPath().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  return done == size;
}

template <typename Table>
void CheckTimes(const Table& t, const char* what) {
  for (size_t i = 0; i < t.size(); ++i) {
    // The loaders' rule (loaders.h CheckTimes): every kept row has -2^62 < start <= end < 2^62.
    if (!(t.start[i] > -(int64_t{1} << 62) && t.start[i] <= t.end[i] && t.end[i] < (int64_t{1} << 62))) {
      std::fprintf(stderr, "%s row %zu has start %lld end %lld\n", what, i, static_cast<long long>(t.start[i]),
                   static_cast<long long>(t.end[i]));
      std::abort();
    }
  }
}

const nsys::skills::Registry& Skills() {
  static const nsys::skills::Registry* registry = [] {
    auto* r = new nsys::skills::Registry();
    nsys::skills::RegisterBuiltins(*r);
    return r;
  }();
  return *registry;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char tmpl[] = "/tmp/fuzz_profile_XXXXXX";
  const char* dir = mkdtemp(tmpl);
  if (!dir) std::abort();
  InputPath() = std::string(dir) + "/input.sqlite";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!WriteInput(data, size)) return 0;
  nsys::engine::OpenOptions options;
  options.use_cache = false;               // never write a cache
  options.load_all_in_background = false;  // no threads outliving the input
  options.worker_threads = 1;
  options.nsys_binary = "/nonexistent/nsys";  // never convert a .nsys-rep
  auto opened = nsys::engine::Profile::Open(InputPath(), options);
  if (!opened) return 0;  // a clear error is a fine answer to a damaged file
  nsys::engine::Profile& profile = **opened;
  (void)profile.info().row_checks->Get();
  if (!profile.Require(nsys::engine::kAllTables).ok()) return 0;
  CheckTimes(profile.kernels(), "kernel");
  CheckTimes(profile.runtime(), "runtime");
  CheckTimes(profile.memcpys(), "memcpy");
  CheckTimes(profile.nvtx(), "nvtx");
  for (const auto& skill : Skills().List()) (void)nsys::skills::Run(*skill, profile, {});
  return 0;
}
