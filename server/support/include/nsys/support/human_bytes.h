#pragma once
// A byte count as people read it, in binary units: "512 B", "1.5 KiB", "80.0 GiB". The one formatter for every
// face (the CLI's info, the trace writer's progress and summary), so the same size never prints two ways.
#include <cstdint>
#include <string>

namespace nsys::support {

// Below 1 KiB the exact count ("1023 B"); above, one decimal in the largest unit that keeps the value >= 1
// (KiB, MiB, GiB, TiB, PiB). Negative counts print as their exact number of bytes.
std::string HumanBytes(int64_t bytes);

}  // namespace nsys::support
