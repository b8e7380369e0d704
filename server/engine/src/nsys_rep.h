#pragma once
// Reports (.nsys-rep, and .qdrep as Nsight Systems named them until 2021.1; both start with "NVIDIA Tegra Profiler
// Report "): converted once with `nsys export --type sqlite` into the cache directory (never next to the report),
// then opened like any export. Private to the engine.
//
// Which `nsys`: an older Nsight Systems cannot read a newer report (2022.4.2 says "Version number is invalid" for a
// 2024.6.2 report, and throws a ProtobufParseException at a 2023.1.2 one), and machines often have several
// installed. The report names its writer: in its header ("NVIDIA Tegra Profiler Report 2024@6@2@25-...v0." =
// 2024.6.2), or, when the header says only "1." (every .qdrep, and .nsys-rep until about 2023.2), in its session
// record (ReadSessionVersion). Every candidate says its own version (`nsys --version`), and the newest candidate is
// used; when even that one is older than the report's writer, the error names both versions and what to do instead.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::engine {

// The argv of the conversion (no shell involved).
std::vector<std::string> NsysExportArgv(const std::string& nsys, const std::string& output, const std::string& report);

// An Nsight Systems version: year, release, patch (and more), as numbers; `text` as written ("2024.6.2").
struct NsysVersion {
  std::vector<int> parts;
  std::string text;
  // Compares the first three parts (a build number does not decide what a release can read).
  int Compare(const NsysVersion& other) const;
};

// The writer version in a report's first bytes: nullopt for a file that is not a report; a report whose header
// carries no version (the old "Report 1." format) gives a version with empty `parts` and `text` "1".
std::optional<NsysVersion> ParseReportHeader(std::string_view head);
// The writer version in a report's session record ("2023.1.2.43-32377213v0" → 2023.1.2.43), or nullopt.
//
// Every report ends with a footer: the offset of its table of sections (8 bytes, little-endian) and then
// "U3w[END]" (a newline may follow). The table is protobuf: repeated field 1 = {1: name, 2: offset, 3: size}. The
// section named "UI Data" is the session record (name, UUID, capture time, host, versions, command line), whose
// field 6 is the version of the nsys that wrote the report (fields 7 and 21 repeat it). This holds for every report
// from 2019.6 (.qdrep) to 2026.1. At most 64 KiB of table and 1 MiB of record are read; anything out of bounds or
// malformed gives nullopt.
std::optional<NsysVersion> ReadSessionVersion(const std::string& report);
// The writer of `report`: its header's version, else its session record's; nullopt for a file that is not a report;
// a version with empty `parts` when neither names it.
std::optional<NsysVersion> ReportWriter(const std::string& report);
// "2023.1.2.43-32377213v0" → 2023.1.2.43 (at least year.release.patch, at most four parts).
std::optional<NsysVersion> ParseWriterVersion(std::string_view text);
// "NVIDIA Nsight Systems version 2022.4.2.1-df9881f" → 2022.4.2.1.
std::optional<NsysVersion> ParseNsysVersionOutput(std::string_view output);

// Where Nsight Systems installs `nsys` (glob patterns): /opt/nvidia/nsight-systems/*/bin/nsys,
// /opt/nvidia/nsight-systems-cli/*/bin/nsys (and target-linux-*), /usr/local/cuda*/bin/nsys,
// /usr/local/cuda*/nsight-systems-*/bin/nsys, /usr/lib/nsight-systems/bin/nsys, /usr/lib/nsight-systems-*/bin/nsys.
const std::vector<std::string>& StandardNsysLocations();

struct NsysCandidate {
  std::string path;
  std::optional<NsysVersion> version;  // nullopt when `--version` gave nothing we understand
};
// Every distinct `nsys` (by resolved path) on PATH and in `patterns`, newest version first (unknown versions last,
// PATH order among equals). Versions are asked once per binary per process.
std::vector<NsysCandidate> FindNsysCandidates(const std::vector<std::string>& patterns);

// The `nsys` to convert `report` with (see the top of this file), or an error that says what to do.
Expected<std::string> ChooseNsys(const std::string& report, const OpenOptions& options);

// Returns the path of the converted .sqlite (reused when this exact report was converted before). Without
// `nsys`, the error gives the user the command to run themselves. Cancelling kills the conversion.
Expected<std::string> ConvertNsysRep(const std::string& report, const OpenOptions& options,
                                     const ProgressSink& progress, const CancelToken& cancel);

}  // namespace nsys::engine
