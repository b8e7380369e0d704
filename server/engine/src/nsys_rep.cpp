#include "nsys_rep.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "file_checks.h"

namespace nsys::engine {
namespace {

namespace fs = std::filesystem;

// Resolves `name` like execvp would: as given when it has a slash, else through $PATH.
std::string FindExecutable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string Stem(const std::string& report) {
  std::string name = fs::path(report).filename().string();
  const std::string ext = ".nsys-rep";
  if (name.size() > ext.size()) name.resize(name.size() - ext.size());
  return name;
}

// The last "NN%" that nsys's progress bar printed, or -1.
double LastPercent(const std::string& out) {
  for (size_t i = out.size(); i-- > 0;) {
    if (out[i] != '%') continue;
    size_t j = i;
    while (j > 0 && std::isdigit(static_cast<unsigned char>(out[j - 1]))) --j;
    if (j < i && i - j <= 3) return std::atof(out.substr(j, i - j).c_str());
  }
  return -1;
}

std::string LastLines(const std::string& out, int lines) {
  size_t pos = out.size();
  while (pos > 0 && (out[pos - 1] == '\n' || out[pos - 1] == '\r')) --pos;
  size_t start = pos;
  for (int n = 0; n < lines && start > 0; ++n) {
    start = out.rfind('\n', start - 1);
    if (start == std::string::npos) {
      start = 0;
      break;
    }
  }
  std::string tail = out.substr(start, pos - start);
  while (!tail.empty() && (tail.front() == '\n' || tail.front() == '\r')) tail.erase(tail.begin());
  return tail;
}

void KillGroup(pid_t child) {
  kill(-child, SIGTERM);
  for (int i = 0; i < 50; ++i) {  // up to 1 s for a clean exit, then SIGKILL
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) return;
    usleep(20000);
  }
  kill(-child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
}

}  // namespace

std::vector<std::string> NsysExportArgv(const std::string& nsys, const std::string& output, const std::string& report) {
  return {nsys, "export", "--type", "sqlite", "--output", output, report};
}

Expected<std::string> ConvertNsysRep(const std::string& report, const OpenOptions& options,
                                     const ProgressSink& progress, const CancelToken& cancel) {
  struct stat st {};
  if (stat(report.c_str(), &st) != 0)
    return MakeError(ErrorKind::kNotFound, fmt::format("No such file: '{}'.", report));
  if (!S_ISREG(st.st_mode)) return MakeError(ErrorKind::kBadInput, fmt::format("'{}' is not a regular file.", report));
  const std::string nsys = FindExecutable(options.nsys_binary);
  if (nsys.empty())
    return MakeError(ErrorKind::kNotFound,
                     fmt::format("'{0}' is an Nsight Systems report (.nsys-rep); reading it needs the Nsight Systems "
                                 "CLI `{1}`, which was not found on PATH. Convert it yourself with:\n"
                                 "  nsys export --type sqlite -o {2}.sqlite {0}\nand open {2}.sqlite instead.",
                                 report, options.nsys_binary, Stem(report)));
  auto identity = IdentifyFile(report);
  if (!identity) return identity.error();
  // Conversions always go to the cache directory: the user's directory is never written.
  std::string dir = CacheDir(options);
  if (dir.empty()) dir = fmt::format("{}/nsys-ai", std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string out = fmt::format("{}/{}.sqlite", dir, identity->Key());
  if (CheckExportFile(out).ok()) return out;  // converted before
  const std::string partial = fmt::format("{}/{}.{}.partial.sqlite", dir, identity->Key(), getpid());
  fs::remove(partial, ec);

  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0)
    return MakeError(ErrorKind::kInternal, fmt::format("pipe() failed: {}.", std::strerror(errno)));
  const std::vector<std::string> args = NsysExportArgv(nsys, partial, report);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    return MakeError(ErrorKind::kInternal, fmt::format("fork() failed: {}.", std::strerror(errno)));
  }
  if (child == 0) {  // only async-signal-safe calls from here
    setpgid(0, 0);   // its own group, so cancelling also stops nsys's helper processes
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipefd[1]);
  setpgid(child, child);
  std::string output;
  const auto started = std::chrono::steady_clock::now();
  auto last_report = started - std::chrono::seconds(1);
  int status = 0;
  bool exited = false;
  bool pipe_open = true;
  while (!exited) {
    if (cancel.cancelled()) {
      close(pipefd[0]);
      KillGroup(child);
      fs::remove(partial, ec);
      return MakeError(ErrorKind::kCancelled, fmt::format("Converting '{}' was cancelled.", report));
    }
    if (pipe_open) {
      pollfd p{pipefd[0], POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char buf[4096];
        const ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n > 0) {
          output.append(buf, static_cast<size_t>(n));
          if (output.size() > 65536) output.erase(0, output.size() - 16384);
        } else if (n == 0) {
          pipe_open = false;
        }
      }
    } else {
      usleep(50000);
    }
    if (waitpid(child, &status, WNOHANG) == child) exited = true;
    const auto now = std::chrono::steady_clock::now();
    if (progress && now - last_report >= std::chrono::milliseconds(500)) {
      last_report = now;
      const double pct = LastPercent(output);
      const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now - started).count();
      progress(pct < 0 ? 0.0 : pct, fmt::format("nsys export {} ({} s)", Stem(report), secs));
    }
  }
  // Drain what is left in the pipe for the error message.
  char buf[4096];
  ssize_t n;
  while (pipe_open && (n = read(pipefd[0], buf, sizeof buf)) > 0) output.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok || !fs::exists(partial)) {
    fs::remove(partial, ec);
    const std::string how = WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("`nsys export` could not convert '{}' ({}{}). Its last output:\n{}", report, how,
                                 ok ? ", and it wrote no output file" : "", LastLines(output, 8)));
  }
  fs::rename(partial, out, ec);
  if (ec)
    return MakeError(ErrorKind::kInternal,
                     fmt::format("Cannot move the converted export to '{}': {}.", out, ec.message()));
  if (progress) progress(100.0, fmt::format("converted {}", Stem(report)));
  return out;
}

}  // namespace nsys::engine
