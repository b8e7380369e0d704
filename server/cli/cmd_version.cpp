#include <cstdio>

#include "commands.h"
#include "nsys/core/version.h"
#include "nsys/support/log.h"

namespace nsys::cli {

Command VersionCommand() {
  Command command;
  command.name = "version";
  command.summary = "print the version of nsys-ai";
  command.run = [](const CommandContext&) {
    const auto version = core::Version();
    std::printf("nsys-ai %.*s\n", static_cast<int>(version.size()), version.data());
    return kExitOk;
  };
  return command;
}

}  // namespace nsys::cli
