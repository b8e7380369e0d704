#pragma once
// Starts tests/llm/standin.py (the stand-in LLM provider) on a scenario for one test and stops it afterwards.
// Header-only: the llm and agent test areas both use it.
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "nsys/llm/config.h"

extern char** environ;

namespace nsys::testing {

class Standin {
 public:
  // Brace-initialised scenarios (`Standin s({{"responses", {...}}})`) need their own overload next to the deleted
  // copy constructor.
  explicit Standin(nlohmann::json::initializer_list_t scenario) : Standin(nlohmann::json(scenario)) {}
  explicit Standin(const nlohmann::json& scenario) {
    dir_ = std::filesystem::temp_directory_path() /
           ("nsys-ai-standin-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "scenario.json") << scenario.dump();
    const std::string script = std::string(NSYS_AI_TEST_DATA_DIR) + "/llm/standin.py";
    const std::string scenario_path = (dir_ / "scenario.json").string();
    const std::string log_path = (dir_ / "requests.jsonl").string();
    std::vector<std::string> argv_s = {"python3", "-B", script, "--scenario", scenario_path, "--log", log_path};
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    const int rc = posix_spawnp(&pid_, "python3", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (rc != 0) {
      ::close(out[0]);
      throw std::runtime_error("could not start python3 for the stand-in");
    }
    port_ = ReadPort(out[0]);
    ::close(out[0]);
    if (port_ <= 0) throw std::runtime_error("the stand-in did not print its port");
  }

  ~Standin() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  Standin(const Standin&) = delete;
  Standin& operator=(const Standin&) = delete;

  int port() const { return port_; }

  // A configuration pointing at the stand-in, with short timeouts and retry delays for tests.
  llm::Config Config(llm::Provider provider, const std::string& key = "sk-test-key-0123456789") const {
    llm::Config c;
    c.provider = provider;
    c.model = provider == llm::Provider::kAnthropic ? "claude-standin" : "gpt-standin";
    c.base_url = "http://127.0.0.1:" + std::to_string(port_) + (provider == llm::Provider::kOpenAI ? "/v1" : "");
    c.api_key = key;
    c.timeout = std::chrono::milliseconds(20'000);
    c.retry_base_delay = std::chrono::milliseconds(20);
    c.max_retry_delay = std::chrono::milliseconds(3'000);
    return c;
  }

  // The requests the stand-in received, in order: {"path", "headers", "body"}.
  std::vector<nlohmann::json> Requests() const {
    std::vector<nlohmann::json> out;
    std::ifstream in(dir_ / "requests.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    }
    return out;
  }

 private:
  static int ReadPort(int fd) {
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (text.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 200) <= 0) continue;
      char buf[64];
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) break;
      text.append(buf, static_cast<size_t>(n));
    }
    int port = 0;
    if (std::sscanf(text.c_str(), "PORT %d", &port) != 1) return 0;
    return port;
  }

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace nsys::testing
