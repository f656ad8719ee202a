// A shared library that is not an Interlink plugin: it exports something else.
extern "C" __attribute__((visibility("default"))) int some_other_library_function() { return 7; }
