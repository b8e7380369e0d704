#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/methods.h"
#include "params_test_util.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::ErrorOf;
using ::nsys::protocol::testing::ExpectRoundTrip;

TEST(LspTypesTest, InitializeParamsFromARealisticClientIgnoresWhatWeDoNotRead) {
  // Trimmed from what vscode-languageclient 9 sends, with our initializationOptions.
  const Json j = Json::parse(R"({
    "processId": 31337,
    "clientInfo": {"name": "Visual Studio Code", "version": "1.92.0"},
    "locale": "en",
    "rootUri": null,
    "capabilities": {
      "workspace": {"applyEdit": true, "configuration": true},
      "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}},
      "window": {"showMessage": {"messageActionItem": {"additionalPropertiesSupport": true}},
                 "showDocument": {"support": true}, "workDoneProgress": true},
      "general": {"positionEncodings": ["utf-16"]}
    },
    "initializationOptions": {"noCache": true, "skillDirs": ["/home/u/skills"], "logLevel": "debug",
                              "perfettoOrigin": "http://127.0.0.1:10000"},
    "trace": "off",
    "workspaceFolders": null
  })");
  const auto parsed = Parse<InitializeParams>(j);
  ASSERT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
  const InitializeParams& p = *parsed;
  EXPECT_EQ(*p.process_id, 31337);
  EXPECT_EQ(p.client_info->name, "Visual Studio Code");
  EXPECT_EQ(*p.client_info->version, "1.92.0");
  EXPECT_TRUE(p.work_done_progress);
  EXPECT_TRUE(p.show_document);
  EXPECT_EQ(*p.initialization_options->no_cache, true);
  EXPECT_EQ(*p.initialization_options->skill_dirs, std::vector<std::string>{"/home/u/skills"});
  EXPECT_EQ(*p.initialization_options->log_level, LogLevel::kDebug);
  EXPECT_EQ(*p.initialization_options->perfetto_origin, "http://127.0.0.1:10000");
}

TEST(LspTypesTest, InitializeParamsMinimalAndRoundTrip) {
  const auto minimal = Parse<InitializeParams>(Json::parse(R"({"processId":null,"capabilities":{}})"));
  ASSERT_TRUE(minimal.ok()) << (minimal.ok() ? "" : minimal.error().message);
  EXPECT_FALSE(minimal->process_id);
  EXPECT_FALSE(minimal->work_done_progress);
  EXPECT_FALSE(minimal->show_document);
  EXPECT_FALSE(minimal->initialization_options);

  InitializeParams p;
  p.process_id = 12;
  p.client_info = ClientInfo{"nvim", std::nullopt};
  p.work_done_progress = true;
  p.initialization_options =
      InitializationOptions{false, std::vector<std::string>{"/s"}, LogLevel::kWarning, "https://perfetto.corp:8443"};
  ExpectRoundTrip(p, R"({"capabilities":{"window":{"showDocument":{"support":false},"workDoneProgress":true}},)"
                     R"("clientInfo":{"name":"nvim"},"initializationOptions":{"logLevel":"warning","noCache":false,)"
                     R"("perfettoOrigin":"https://perfetto.corp:8443","skillDirs":["/s"]},"processId":12})");
}

TEST(LspTypesTest, InitializeParamsErrorsNameTheNestedPath) {
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"capabilities":{"window":{"workDoneProgress":"yes"}}})"),
            "params.capabilities.window.workDoneProgress: expected a boolean, got a string");
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"capabilities":{"window":{"showDocument":{"support":1}}}})"),
            "params.capabilities.window.showDocument.support: expected a boolean, got a number");
  EXPECT_EQ(
      ErrorOf<InitializeParams>(R"({"initializationOptions":{"logLevel":"verbose"}})"),
      R"(params.initializationOptions.logLevel: expected one of "error", "warning", "info", "debug", got "verbose")");
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"initializationOptions":{"skillDirs":["/a",2]}})"),
            "params.initializationOptions.skillDirs[1]: expected a string, got a number");
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"processId":"12"})"), "params.processId: expected an integer, got a string");
}

TEST(LspTypesTest, PerfettoOriginMustBeAWebOrigin) {
  for (const char* ok :
       {"https://ui.perfetto.dev", "http://127.0.0.1:10000", "http://[::1]:9000", "http://localhost"}) {
    const auto parsed = Parse<InitializeParams>(Json{{"initializationOptions", {{"perfettoOrigin", ok}}}});
    ASSERT_TRUE(parsed.ok()) << ok << ": " << (parsed.ok() ? "" : parsed.error().message);
    EXPECT_EQ(*parsed->initialization_options->perfetto_origin, ok);
    EXPECT_TRUE(CheckWebOrigin(ok).ok()) << ok;
  }
  // A path, a trailing slash, another scheme, quotes or an empty string would break the opener page's postMessage.
  for (const char* bad : {"https://ui.perfetto.dev/", "https://ui.perfetto.dev/#!/", "ftp://ui.perfetto.dev",
                          "ui.perfetto.dev", "https://x.dev'", "", "javascript:alert(1)"}) {
    EXPECT_EQ(CheckWebOrigin(bad).error().kind, ErrorKind::kInvalidArgument) << bad;
    const auto parsed = Parse<InitializeParams>(Json{{"initializationOptions", {{"perfettoOrigin", bad}}}});
    EXPECT_FALSE(parsed.ok()) << bad;
  }
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"initializationOptions":{"perfettoOrigin":"https://ui.perfetto.dev/"}})"),
            "params.initializationOptions.perfettoOrigin: 'https://ui.perfetto.dev/' is not a web origin like "
            "https://ui.perfetto.dev or http://127.0.0.1:10000 (scheme, host and optional port; no path)");
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"initializationOptions":{"perfettoOrigin":9001}})"),
            "params.initializationOptions.perfettoOrigin: expected a string, got a number");
}

TEST(LspTypesTest, SkillTimeoutSecondsIsAPositiveNumberOfAtMostADay) {
  const auto parsed = Parse<InitializeParams>(Json{{"initializationOptions", {{"skillTimeoutSeconds", 0.5}}}});
  ASSERT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
  EXPECT_EQ(*parsed->initialization_options->skill_timeout_seconds, 0.5);
  for (const char* bad : {R"(0)", R"(-1)", R"(86401)", R"(1e300)"}) {
    EXPECT_EQ(
        ErrorOf<InitializeParams>(std::string(R"({"initializationOptions":{"skillTimeoutSeconds":)") + bad + "}}"),
        "params.initializationOptions.skillTimeoutSeconds: must be a number of seconds, more than 0 and at most "
        "86400 (a day)")
        << bad;
  }
  EXPECT_EQ(ErrorOf<InitializeParams>(R"({"initializationOptions":{"skillTimeoutSeconds":"5"}})"),
            "params.initializationOptions.skillTimeoutSeconds: expected a number, got a string");
}

TEST(LspTypesTest, InitializeResultRoundTrips) {
  InitializeResult r;
  r.server_info = ServerInfo{"nsys-ai", "0.1.0"};
  r.capabilities.execute_commands = {"nsys.openInPerfetto"};
  r.capabilities.nsys_methods = {"nsys/openProfile"};
  r.capabilities.skills = {"gpu_kern_sum"};
  ExpectRoundTrip(r, R"({"capabilities":{"executeCommandProvider":{"commands":["nsys.openInPerfetto"]},)"
                     R"("experimental":{"nsysMethods":["nsys/openProfile"],"skills":["gpu_kern_sum"]}},)"
                     R"("serverInfo":{"name":"nsys-ai","version":"0.1.0"}})");
  InitializeResult bare;
  bare.server_info.name = "nsys-ai";
  ExpectRoundTrip(bare, R"({"capabilities":{},"serverInfo":{"name":"nsys-ai"}})");
}

TEST(LspTypesTest, ProgressRoundTrips) {
  ExpectRoundTrip(WorkDoneProgressCreateParams{std::string("nsys-1")}, R"({"token":"nsys-1"})");
  ExpectRoundTrip(WorkDoneProgressCreateParams{int64_t{4}}, R"({"token":4})");
  ExpectRoundTrip(ProgressParams{std::string("nsys-1"), Json(WorkDoneProgressReport{false, "NVTX 3.2M/16.8M", 19})},
                  R"({"token":"nsys-1","value":{"cancellable":false,"kind":"report","message":"NVTX 3.2M/16.8M",)"
                  R"("percentage":19}})");
  ExpectRoundTrip(WorkDoneProgressBegin{"Opening h100.sqlite", true, std::nullopt, 0},
                  R"({"cancellable":true,"kind":"begin","percentage":0,"title":"Opening h100.sqlite"})");
  ExpectRoundTrip(WorkDoneProgressReport{}, R"({"kind":"report"})");
  ExpectRoundTrip(WorkDoneProgressEnd{"done"}, R"({"kind":"end","message":"done"})");
  ExpectRoundTrip(WorkDoneProgressEnd{}, R"({"kind":"end"})");
}

TEST(LspTypesTest, ProgressErrors) {
  EXPECT_EQ(ErrorOf<WorkDoneProgressBegin>(R"({"kind":"report","title":"t"})"),
            R"(params.kind: expected "begin", got "report")");
  EXPECT_EQ(ErrorOf<WorkDoneProgressReport>(R"({"kind":"report","percentage":101})"),
            "params.percentage: must be between 0 and 100");
  EXPECT_EQ(ErrorOf<WorkDoneProgressBegin>(R"({"kind":"begin"})"), "params.title: missing required field");
  EXPECT_EQ(ErrorOf<ProgressParams>(R"({"token":1.5,"value":{}})"),
            "params.token: expected an integer or a string, got a number");
  EXPECT_EQ(ErrorOf<ProgressParams>(R"({"token":1})"), "params.value: missing required field");
}

TEST(LspTypesTest, CancelParamsRoundTrip) {
  ExpectRoundTrip(CancelParams{int64_t{17}}, R"({"id":17})");
  ExpectRoundTrip(CancelParams{std::string("r7")}, R"({"id":"r7"})");
  EXPECT_EQ(ErrorOf<CancelParams>(R"({"id":null})"), "params.id: expected an integer or a string, got null");
  EXPECT_EQ(ErrorOf<CancelParams>(R"({})"), "params.id: missing required field");
}

TEST(LspTypesTest, LogMessageRoundTrips) {
  ExpectRoundTrip(LogMessageParams{MessageType::kWarning, "cache dir not writable"},
                  R"({"message":"cache dir not writable","type":2})");
  ExpectRoundTrip(ShowMessageParams{MessageType::kError, "x"}, R"({"message":"x","type":1})");
  EXPECT_EQ(ErrorOf<LogMessageParams>(R"({"type":9,"message":"m"})"),
            "params.type: expected a MessageType from 1 to 5, got 9");
}

TEST(LspTypesTest, ShowDocumentRoundTrips) {
  ExpectRoundTrip(ShowDocumentParams{"http://127.0.0.1:4000/p/abc/", true, std::nullopt},
                  R"({"external":true,"uri":"http://127.0.0.1:4000/p/abc/"})");
  ExpectRoundTrip(ShowDocumentParams{"file:///x", std::nullopt, false}, R"({"takeFocus":false,"uri":"file:///x"})");
  ExpectRoundTrip(ShowDocumentResult{true}, R"({"success":true})");
}

TEST(LspTypesTest, EnumNames) {
  EXPECT_EQ(ToString(WindowClock::kCaptureNs), "capture_ns");
  EXPECT_EQ(ToString(ValueType::kDouble), "double");
  EXPECT_EQ(ToString(LogLevel::kInfo), "info");
}

}  // namespace
}  // namespace nsys::protocol
