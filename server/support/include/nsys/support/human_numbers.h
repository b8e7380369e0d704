#pragma once
// A duration and a decimal size as people write them in a finding or a headline, so that a 2 GB export's figures
// read as "1,842 s" and "25,475 GB", not "1841630.8 ms" and "25475.3 GB": one formatter for the analysis, the Book's
// templates and the rendered findings, so the same figure never prints two ways.
#include <string>

namespace nsys::support {

// "2.3 µs" below 0.1 ms (one decimal of a millisecond would say 0.0), "949.1 ms" below 100 s, and whole seconds with
// thousands separators from 100 s up ("1,842 s"), where a tenth of a millisecond is no information.
std::string HumanDuration(double ns);
// Decimal gigabytes (1 GB = 1e9 bytes): one decimal below 1,000 GB ("2.1 GB"), whole with thousands separators from
// there ("25,475 GB").
std::string HumanGigabytes(double bytes);

}  // namespace nsys::support
