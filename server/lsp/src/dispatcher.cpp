#include "nsys/lsp/dispatcher.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/core/version.h"
#include "nsys/lsp/handlers.h"
#include "nsys/lsp/method_table.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/lsp/source_handlers.h"
#include "nsys/support/log.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/documents.h"
#include "nsys/wire/job.h"
#include "progress.h"

namespace nsys::lsp {

using protocol::Json;
using protocol::RequestId;

namespace {

// Map keys that keep 5 and "5" apart.
std::string IdKey(const RequestId& id) {
  if (const auto* i = std::get_if<int64_t>(&id)) return "i" + std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&id)) return "s" + *s;
  return "null";
}

std::string Preview(const std::string& text, size_t limit = 300) {
  return text.size() <= limit ? text : text.substr(0, limit) + fmt::format("... ({} bytes)", text.size());
}

protocol::MessageType ToMessageType(protocol::LogLevel level) {
  switch (level) {
    case protocol::LogLevel::kError:
      return protocol::MessageType::kError;
    case protocol::LogLevel::kWarning:
      return protocol::MessageType::kWarning;
    case protocol::LogLevel::kInfo:
      return protocol::MessageType::kInfo;
    case protocol::LogLevel::kDebug:
      return protocol::MessageType::kDebug;
  }
  return protocol::MessageType::kLog;
}

}  // namespace

class ReplyOnce;

class DispatcherCore final : public std::enable_shared_from_this<DispatcherCore>,
                             public Client,
                             public NotificationContext {
 public:
  DispatcherCore(core::Workspace& workspace, support::Executor& executor, MessageSink sink, ServerOptions options)
      : workspace_(workspace),
        executor_(executor),
        sink_(std::move(sink)),
        options_(std::move(options)),
        methods_(options_.methods ? options_.methods : &ProductMethods()),
        pre_init_methods_(methods_->Subset({"initialize", "exit"})),
        task_queue_(support::NewTaskQueue()) {
    if (options_.server_version.empty()) options_.server_version = std::string(core::Version());
  }

  // ---- incoming ----

  void OnMessage(protocol::Message message, size_t wire_bytes) {
    std::visit(
        [this, wire_bytes](auto&& m) {
          using T = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<T, protocol::Request>) {
            OnRequest(std::move(m), wire_bytes);
          } else if constexpr (std::is_same_v<T, protocol::Notification>) {
            OnNotification(std::move(m));
          } else {
            OnResponse(std::move(m));
          }
        },
        std::move(message));
  }

  void OnRequest(protocol::Request request, size_t wire_bytes);
  void OnNotification(protocol::Notification notification);
  void OnResponse(protocol::Response response);

  // ---- outgoing ----

  void Send(const protocol::Message& message) {
    if (closed_.load()) return;
    std::string body = protocol::Serialize(message);
    if (support::LogEnabled(support::LogLevel::kDebug)) support::LogDebug("--> " + Preview(body));
    sink_(std::move(body));
  }

  void Notify(std::string_view method, Json params) override {
    Send(protocol::Notification{std::string(method), std::move(params)});
  }

  void Call(std::string_view method, Json params, ReplyCallback on_reply) override {
    RequestId id;
    {
      std::unique_lock lock(mu_);
      if (closed_.load() || phase_ == Phase::kExited) {
        lock.unlock();
        if (on_reply) on_reply(MakeError(ErrorKind::kCancelled, "the client session has ended"));
        return;
      }
      id = std::string(fmt::format("nsys-{}", next_call_id_++));
      calls_[IdKey(id)] = std::move(on_reply);
    }
    Send(protocol::Request{id, std::string(method), std::move(params)});
  }

  ClientFeatures features() const override {
    std::lock_guard lock(mu_);
    return settings_.client;
  }

  // Called once per request, by its ReplyOnce.
  void Complete(const std::string& key, const RequestId& id, const std::string& method, const CancelToken& cancel,
                Expected<Json> result) {
    std::function<void()> on_done;
    {
      std::lock_guard lock(mu_);
      if (auto it = running_.find(key); it != running_.end()) {
        running_bytes_ -= it->second.wire_bytes;
        running_.erase(it);  // from here on, $/cancelRequest for this id is ignored
      }
      ++replying_;  // still counted by running_requests() until the reply is handed to the transport
      on_done = request_done_handler_;
    }
    // Runs after the reply went to the sink: the transport may resume reading a connection it paused.
    struct Replied {
      std::atomic<size_t>& count;
      std::function<void()>& on_done;
      ~Replied() {
        --count;
        if (on_done) on_done();
      }
    } replied{replying_, on_done};
    // A result that was computed despite a late cancel is still sent: what it made (an open profile) is not lost.
    if (result) {
      Send(protocol::MakeResult(id, std::move(result).value()));
    } else if (cancel.cancelled() || result.error().kind == ErrorKind::kCancelled) {
      support::LogInfo(fmt::format("{} ({}) was cancelled", method, protocol::IdToString(id)));
      Send(protocol::MakeError(id, protocol::kRequestCancelled, fmt::format("request '{}' was cancelled", method)));
    } else {
      const auto error = wire::ToResponseError(result.error());
      support::LogInfo(fmt::format("{} ({}) failed: {}", method, protocol::IdToString(id), error.message));
      Send(protocol::MakeError(id, error.code, error.message, error.data));
    }
  }

  // ---- NotificationContext ----

  void CancelRequest(const RequestId& id) override {
    std::lock_guard lock(mu_);
    if (auto it = running_.find(IdKey(id)); it != running_.end()) {
      support::LogDebug(fmt::format("cancelling {} ({})", it->second.method, protocol::IdToString(id)));
      it->second.cancel.cancel();
    }
  }

  void CancelWorkDoneProgress(const protocol::ProgressToken& token) override {
    std::lock_guard lock(mu_);
    for (auto& [key, running] : running_) {
      if (running.progress->HasToken(token)) running.cancel.cancel();
    }
  }

  void Exit() override {
    std::function<void(int)> handler;
    int code = 1;
    {
      std::lock_guard lock(mu_);
      if (phase_ == Phase::kExited) return;
      code = phase_ == Phase::kShutdown ? 0 : 1;
      phase_ = Phase::kExited;
      exit_code_ = code;
      // An abrupt exit abandons the work in flight; after shutdown the transport lets it answer first.
      if (code != 0) {
        for (auto& [key, running] : running_) running.cancel.cancel();
      }
      handler = exit_handler_;
    }
    support::LogInfo(fmt::format("exit received; exit code {}", code));
    if (handler) handler(code);
  }

  core::Workspace& workspace() override { return workspace_; }
  Client& client() override { return *this; }
  SessionDocuments& documents() override { return *documents_; }
  SessionSources* sources() override {
    std::lock_guard lock(mu_);
    return sources_.get();
  }
  void RunInBackground(std::string title, BackgroundWork work) override;

  // ---- session ----

  size_t Disconnect() {
    std::map<std::string, ReplyCallback> calls;
    std::shared_ptr<SessionSources> sources;
    size_t cancelled = 0;
    {
      std::lock_guard lock(mu_);
      if (closed_.exchange(true)) return 0;
      for (auto& [key, running] : running_) {
        if (!running.cancel.cancelled()) ++cancelled;
        running.cancel.cancel();
      }
      for (auto& [n, cancel] : background_) cancel.cancel();
      calls.swap(calls_);
      sources = sources_;
    }
    if (sources) sources->Close();  // the session's source set goes with it
    for (auto& [key, callback] : calls) {
      if (callback) callback(MakeError(ErrorKind::kCancelled, "the client disconnected"));
    }
    return cancelled;
  }

  void SetExitHandler(std::function<void(int)> handler) {
    std::lock_guard lock(mu_);
    exit_handler_ = std::move(handler);
  }
  std::optional<int> exit_code() const {
    std::lock_guard lock(mu_);
    return exit_code_;
  }
  bool shutdown_received() const {
    std::lock_guard lock(mu_);
    return phase_ == Phase::kShutdown || (phase_ == Phase::kExited && exit_code_ == 0);
  }
  size_t running_requests() const {
    std::lock_guard lock(mu_);
    return running_.size() + replying_.load();
  }
  size_t running_request_bytes() const {
    std::lock_guard lock(mu_);
    return running_bytes_;
  }
  void SetRequestDoneHandler(std::function<void()> handler) {
    std::lock_guard lock(mu_);
    request_done_handler_ = std::move(handler);
  }

  void CancelAll() {
    std::lock_guard lock(mu_);
    for (auto& [key, running] : running_) running.cancel.cancel();
  }

 private:
  enum class Phase { kWaitingForInitialize, kRunning, kShutdown, kExited };

  struct Running {
    std::string method;
    CancelToken cancel;
    std::shared_ptr<WorkDoneProgress> progress;
    size_t wire_bytes = 0;  // the request's body size, for the transport's bound on bytes in flight
  };

  void ReplyNow(const RequestId& id, int code, std::string message) {
    support::LogInfo(fmt::format("refused request {}: {}", protocol::IdToString(id), message));
    Send(protocol::MakeError(id, code, std::move(message)));
  }
  // Applies a valid `initialize`'s session settings; false (and an error reply) when its params are invalid.
  bool AcceptInitialize(const protocol::Request& request);
  void JobRequest(const MethodTable::Entry* entry, protocol::Request request, std::shared_ptr<ReplyOnce> reply,
                  CancelToken cancel, std::shared_ptr<WorkDoneProgress> progress, SessionSettings settings,
                  std::optional<protocol::ProgressToken> partial_result_token);

  core::Workspace& workspace_;
  support::Executor& executor_;
  MessageSink sink_;
  ServerOptions options_;
  const MethodTable* methods_;
  const MethodTable pre_init_methods_;
  const uint64_t task_queue_;  // this session's queue in the executor (fair turns between sessions)

  mutable std::mutex mu_;
  std::atomic<bool> closed_{false};
  Phase phase_ = Phase::kWaitingForInitialize;
  SessionSettings settings_;
  const std::shared_ptr<SessionDocuments> documents_ = std::make_shared<SessionDocuments>();
  std::shared_ptr<SessionSources> sources_;    // made by AcceptInitialize
  std::map<int64_t, CancelToken> background_;  // background work queued or running, by number
  int64_t next_background_ = 1;
  std::map<std::string, Running> running_;
  std::atomic<size_t> replying_{0};
  size_t running_bytes_ = 0;
  std::function<void()> request_done_handler_;
  std::map<std::string, ReplyCallback> calls_;
  int64_t next_call_id_ = 1;
  std::optional<int> exit_code_;
  std::function<void(int)> exit_handler_;
};

// Exactly one reply per request: calling it twice logs and drops the second reply; destroying it unreplied (a
// handler that forgot, a task dropped, an exception past the handler) replies -32603.
class ReplyOnce {
 public:
  ReplyOnce(std::shared_ptr<DispatcherCore> core, RequestId id, std::string method, std::string key, CancelToken cancel)
      : core_(std::move(core)),
        id_(std::move(id)),
        method_(std::move(method)),
        key_(std::move(key)),
        cancel_(std::move(cancel)) {}
  ReplyOnce(const ReplyOnce&) = delete;
  ReplyOnce& operator=(const ReplyOnce&) = delete;
  ~ReplyOnce() {
    if (core_) {
      (*this)(MakeError(ErrorKind::kInternal,
                        fmt::format("internal error: the handler of '{}' finished without replying", method_)));
    }
  }

  void operator()(Expected<Json> result) {
    auto core = std::move(core_);
    if (!core) {
      support::LogError(fmt::format("a second reply to {} ({}) was dropped", method_, protocol::IdToString(id_)));
      return;
    }
    core->Complete(key_, id_, method_, cancel_, std::move(result));
  }

 private:
  std::shared_ptr<DispatcherCore> core_;
  RequestId id_;
  std::string method_;
  std::string key_;
  CancelToken cancel_;
};

bool DispatcherCore::AcceptInitialize(const protocol::Request& request) {
  auto params = protocol::Parse<protocol::InitializeParams>(request.params);
  if (!params.ok()) {
    ReplyNow(request.id, wire::ErrorCodeFor(params.error().kind), params.error().message);
    return false;
  }
  SessionSettings settings;
  settings.client.work_done_progress = params->work_done_progress;
  settings.client.show_document = params->show_document;
  if (params->client_info) settings.client.name = params->client_info->name;
  if (const auto& options = params->initialization_options) {
    settings.no_cache = options->no_cache.value_or(false);
    settings.perfetto_origin = options->perfetto_origin.value_or("");
    if ((options->nsys_path || options->run_launcher) && !options_.allow_client_commands) {
      ReplyNow(request.id, protocol::kInvalidParams,
               fmt::format("params.initializationOptions.{}: this server does not run programs a client names over a "
                           "network or socket connection (start it with --allow-client-commands to allow it, or use "
                           "serve --stdio)",
                           options->nsys_path ? "nsysPath" : "runLauncher"));
      return false;
    }
    if (options->nsys_path) settings.nsys_path = PathFromClient(*options->nsys_path);
    if (options->skill_timeout_seconds) {
      auto timeout = core::SkillTimeoutFromSeconds(*options->skill_timeout_seconds);
      if (!timeout) {
        ReplyNow(request.id, protocol::kInvalidParams,
                 "params.initializationOptions.skillTimeoutSeconds: " + timeout.error().message);
        return false;
      }
      settings.skill_timeout = *timeout;
    }
    if (options->memory_budget) {
      auto budget = wire::ToMemoryBudget(*options->memory_budget);
      if (!budget) {
        ReplyNow(request.id, protocol::kInvalidParams, "params.initializationOptions." + budget.error().message);
        return false;
      }
      settings.memory_budget = *budget;
    }
    if (options->run_launcher) {
      if (options->run_launcher->empty() || options->run_launcher->front().empty()) {
        ReplyNow(request.id, protocol::kInvalidParams,
                 "params.initializationOptions.runLauncher: the command's first word (the program) is missing");
        return false;
      }
      settings.run_launcher = *options->run_launcher;
    }
    if (options->llm) {
      auto llm =
          wire::ToLlmConfig(*options->llm, workspace_.config().llm, [](const char* name) { return std::getenv(name); });
      if (!llm) {
        ReplyNow(request.id, protocol::kInvalidParams, llm.error().message);
        return false;
      }
      settings.llm = std::move(*llm);
    }
    // The session's own window/logMessage level; the process's log stays as the server was started.
    if (options->log_level) settings.client.log_messages = ToMessageType(*options->log_level);
  }
  settings.documents = documents_;
  sources_ = std::make_shared<SessionSources>(workspace_);
  sources_->SetCodeLensRefresh(params->code_lens_refresh);
  sources_->SetRoots(SourceRootsOf(*params));
  settings.sources = sources_;
  settings_ = std::move(settings);
  phase_ = Phase::kRunning;
  support::LogInfo(
      fmt::format("initialize from {}", settings_.client.name.empty() ? "a client" : settings_.client.name));
  return true;
}

void DispatcherCore::OnRequest(protocol::Request request, size_t wire_bytes) {
  if (support::LogEnabled(support::LogLevel::kDebug)) {
    support::LogDebug(fmt::format("<-- {} ({}) {}", request.method, protocol::IdToString(request.id),
                                  Preview(request.params.dump())));
  }
  std::unique_lock lock(mu_);
  if (closed_.load() || phase_ == Phase::kExited) return;
  if (phase_ == Phase::kShutdown) {
    lock.unlock();
    return ReplyNow(request.id, protocol::kInvalidRequest, "server is shutting down");
  }
  const bool initialized = phase_ != Phase::kWaitingForInitialize;
  const MethodTable::Entry* entry = (initialized ? *methods_ : pre_init_methods_).Find(request.method);
  if (!entry) {
    lock.unlock();
    if (!initialized) {
      return ReplyNow(request.id, protocol::kServerNotInitialized,
                      fmt::format("server not initialized: send 'initialize' before '{}'", request.method));
    }
    return ReplyNow(request.id, protocol::kMethodNotFound, fmt::format("method not found: {}", request.method));
  }
  if (!entry->is_request()) {
    lock.unlock();
    return ReplyNow(request.id, protocol::kInvalidRequest,
                    fmt::format("'{}' is a notification: send it without an id", request.method));
  }
  const std::string key = IdKey(request.id);
  if (running_.count(key)) {
    lock.unlock();
    return ReplyNow(request.id, protocol::kInvalidRequest,
                    fmt::format("request id {} is already used by a request that is still running",
                                protocol::IdToString(request.id)));
  }
  if (request.method == "initialize") {
    if (initialized) {
      lock.unlock();
      return ReplyNow(request.id, protocol::kInvalidRequest, "initialize may be sent only once per session");
    }
    if (!AcceptInitialize(request)) return;
  } else if (request.method == "shutdown") {
    phase_ = Phase::kShutdown;  // from now on, later requests are refused
  }

  const protocol::RequestTokens tokens = protocol::ReadRequestTokens(request.params);
  WorkDoneProgress::Config progress_config;
  progress_config.client_token = tokens.work_done_token;
  progress_config.title = entry->options.progress_title;
  progress_config.may_create = settings_.client.work_done_progress;
  progress_config.interval = options_.progress_interval;
  progress_config.create_delay = options_.created_progress_delay;
  auto progress = std::make_shared<WorkDoneProgress>(std::weak_ptr<Client>(shared_from_this()), progress_config);

  CancelToken cancel;
  running_[key] = Running{request.method, cancel, progress, wire_bytes};
  running_bytes_ += wire_bytes;
  auto reply = std::make_shared<ReplyOnce>(shared_from_this(), request.id, request.method, key, cancel);
  SessionSettings settings = settings_;
  lock.unlock();

  const support::TaskOrigin origin{task_queue_, entry->options.cheap};
  executor_.Post(
      [self = shared_from_this(), entry, request = std::move(request), reply = std::move(reply), cancel,
       progress = std::move(progress), settings = std::move(settings),
       partial = tokens.partial_result_token]() mutable {
        self->JobRequest(entry, std::move(request), std::move(reply), cancel, std::move(progress), std::move(settings),
                         std::move(partial));
      },
      origin);
}

void DispatcherCore::JobRequest(const MethodTable::Entry* entry, protocol::Request request,
                                std::shared_ptr<ReplyOnce> reply, CancelToken cancel,
                                std::shared_ptr<WorkDoneProgress> progress, SessionSettings settings,
                                std::optional<protocol::ProgressToken> partial_result_token) {
  if (cancel.cancelled()) {  // cancelled while queued: do not start
    (*reply)(MakeError(ErrorKind::kCancelled, "cancelled"));
    return;
  }
  RequestContext::Parts parts;
  parts.workspace = &workspace_;
  parts.client = this;
  parts.options = &options_;
  parts.methods = methods_;
  parts.settings = std::move(settings);
  parts.id = request.id;
  parts.method = request.method;
  parts.cancel = cancel;
  parts.progress = progress->Sink();
  parts.run_in_background = [weak = weak_from_this()](std::string title, BackgroundWork work) {
    if (auto self = weak.lock()) self->RunInBackground(std::move(title), std::move(work));
  };
  if (partial_result_token) {
    parts.send_partial = [weak = weak_from_this(), token = *partial_result_token](Json value) {
      if (auto self = weak.lock()) self->Notify("$/progress", Json(protocol::ProgressParams{token, std::move(value)}));
    };
  }
  RequestContext ctx(std::move(parts));

  progress->Begin();
  Expected<Json> result = MakeError(ErrorKind::kInternal, "no result");
  try {
    result = entry->request(request.params, ctx);
  } catch (const std::exception& e) {
    result = MakeError(ErrorKind::kInternal, fmt::format("internal error in '{}': {}", request.method, e.what()));
  } catch (...) {
    result = MakeError(ErrorKind::kInternal, fmt::format("internal error in '{}': unknown exception", request.method));
  }
  progress->End();
  (*reply)(std::move(result));
}

void DispatcherCore::RunInBackground(std::string title, BackgroundWork work) {
  SessionSettings settings;
  CancelToken cancel;
  int64_t number = 0;
  {
    std::lock_guard lock(mu_);
    if (closed_.load() || phase_ == Phase::kWaitingForInitialize || phase_ == Phase::kExited) return;
    settings = settings_;
    number = next_background_++;
    background_[number] = cancel;
  }
  WorkDoneProgress::Config config;
  config.title = title;
  config.may_create = settings.client.work_done_progress;
  config.interval = options_.progress_interval;
  config.create_delay = options_.created_progress_delay;
  auto progress = std::make_shared<WorkDoneProgress>(std::weak_ptr<Client>(shared_from_this()), config);
  executor_.Post(
      [self = shared_from_this(), title = std::move(title), work = std::move(work), settings = std::move(settings),
       cancel, progress, number]() mutable {
        if (!cancel.cancelled()) {
          RequestContext::Parts parts;
          parts.workspace = &self->workspace_;
          parts.client = self.get();
          parts.options = &self->options_;
          parts.methods = self->methods_;
          parts.settings = std::move(settings);
          parts.id = std::string("background-") + std::to_string(number);
          parts.method = title;
          parts.cancel = cancel;
          parts.progress = progress->Sink();
          RequestContext ctx(std::move(parts));
          progress->Begin();
          try {
            work(ctx);
          } catch (const std::exception& e) {
            support::LogWarn(fmt::format("{} failed: {}", title, e.what()));
          } catch (...) {
            support::LogWarn(fmt::format("{} failed", title));
          }
          progress->End();
        }
        std::lock_guard lock(self->mu_);
        self->background_.erase(number);
      },
      support::TaskOrigin{task_queue_, false});
}

void DispatcherCore::OnNotification(protocol::Notification notification) {
  const std::string& method = notification.method;
  if (support::LogEnabled(support::LogLevel::kDebug)) {
    support::LogDebug(fmt::format("<-- {} {}", method, Preview(notification.params.dump())));
  }
  const MethodTable::Entry* entry = nullptr;
  {
    std::lock_guard lock(mu_);
    if (closed_.load() || phase_ == Phase::kExited) return;
    const bool initialized = phase_ != Phase::kWaitingForInitialize;
    // After shutdown only `exit` matters.
    if (phase_ == Phase::kShutdown && method != "exit") return;
    entry = (initialized ? *methods_ : pre_init_methods_).Find(method);
    if (!entry && !initialized) {
      support::LogInfo(fmt::format("dropped notification '{}' received before initialize", method));
      return;
    }
  }
  if (!entry) {
    // LSP: unknown notifications are ignored; $/ ones are protocol-optional and not worth a log line.
    if (method.rfind("$/", 0) != 0) support::LogInfo(fmt::format("ignored unknown notification '{}'", method));
    return;
  }
  if (entry->is_request()) {
    support::LogWarn(fmt::format("ignored '{}' sent as a notification: it is a request and needs an id", method));
    return;
  }
  try {
    entry->notification(notification.params, *this);
  } catch (const std::exception& e) {
    support::LogWarn(fmt::format("notification '{}' failed: {}", method, e.what()));
  }
}

void DispatcherCore::OnResponse(protocol::Response response) {
  ReplyCallback callback;
  {
    std::lock_guard lock(mu_);
    auto it = calls_.find(IdKey(response.id));
    if (it == calls_.end()) {
      support::LogInfo(fmt::format("ignored a response to unknown request {}", protocol::IdToString(response.id)));
      return;
    }
    callback = std::move(it->second);
    calls_.erase(it);
  }
  if (!callback) return;
  if (response.error) {
    callback(MakeError(ErrorKind::kBadInput, fmt::format("the client answered with error {}: {}", response.error->code,
                                                         response.error->message)));
  } else {
    callback(response.result.value_or(Json()));
  }
}

// ---- Dispatcher ----

Dispatcher::Dispatcher(core::Workspace& workspace, support::Executor& executor, MessageSink sink, ServerOptions options)
    : core_(std::make_shared<DispatcherCore>(workspace, executor, std::move(sink), std::move(options))) {}

Dispatcher::~Dispatcher() {
  core_->Disconnect();
}

void Dispatcher::OnMessage(protocol::Message message, size_t wire_bytes) {
  core_->OnMessage(std::move(message), wire_bytes);
}
void Dispatcher::SendResponse(const protocol::Response& response) {
  core_->Send(response);
}
size_t Dispatcher::Disconnect() {
  return core_->Disconnect();
}
void Dispatcher::SetExitHandler(std::function<void(int)> handler) {
  core_->SetExitHandler(std::move(handler));
}
std::optional<int> Dispatcher::exit_code() const {
  return core_->exit_code();
}
bool Dispatcher::shutdown_received() const {
  return core_->shutdown_received();
}
size_t Dispatcher::running_requests() const {
  return core_->running_requests();
}
size_t Dispatcher::running_request_bytes() const {
  return core_->running_request_bytes();
}
void Dispatcher::SetRequestDoneHandler(std::function<void()> handler) {
  core_->SetRequestDoneHandler(std::move(handler));
}
void Dispatcher::CancelAll() {
  core_->CancelAll();
}
Client& Dispatcher::client() {
  return *core_;
}

}  // namespace nsys::lsp
