#pragma once
// Counts, durations and decimal sizes as people write them in a finding, a headline or a table, so that a 2 GB export's
// figures read as "1,842 s" and "25,475 GB", not "1841630.8 ms" and "25475.3 GB": one formatter for the analysis, the
// Book's templates, the rendered findings and the CLI's tables, so the same figure never prints two ways.
#include <cstdint>
#include <string>

namespace nsys::support {

// A whole number with thousands separators: "1,842", "-250", every int64_t included.
std::string Thousands(int64_t v);

// "2.3 µs" below 0.1 ms (one decimal of a millisecond would say 0.0), "949.1 ms" below 100 s, and whole seconds with
// thousands separators from 100 s up ("1,842 s"), where a tenth of a millisecond is no information.
std::string HumanDuration(double ns);
// Decimal gigabytes (1 GB = 1e9 bytes): one decimal below 1,000 GB ("2.1 GB"), whole with thousands separators from
// there ("25,475 GB").
std::string HumanGigabytes(double bytes);

}  // namespace nsys::support
