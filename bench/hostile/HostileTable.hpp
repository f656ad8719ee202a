#pragma once
// The table of issue 14's hostile inputs (bench_hostile --table): time and peak memory of the CLI on each.
#include <string>

namespace interlink::bench {

/// Prints one Markdown row per hostile input, checked by the CLI at `cli` in its own process;
/// 1 when one of them took a second or more, or crashed.
int printHostileTable(const std::string& cli);

}  // namespace interlink::bench
