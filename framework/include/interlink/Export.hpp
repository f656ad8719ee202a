#pragma once
// Symbol visibility for the core library (built with hidden visibility by default).
#if defined(_WIN32)
#define INTERLINK_API __declspec(dllexport)
#else
#define INTERLINK_API __attribute__((visibility("default")))
#endif
