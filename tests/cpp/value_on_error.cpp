// Expected<T>::value() on a failed call must never hand back a made-up value.
// tests/cpp_binding.rs builds this with and without NDEBUG, with exceptions
// on (plain and with SINEW_CPP_EXCEPTIONS) and off (-fno-exceptions):
// - exceptions on: value() throws sinew::Error carrying the code, caught here;
// - exceptions off: value() prints the code and message and aborts, and the
//   harness checks the signal and stderr.
// Either way, reaching the end of main is a failure.
#include <cstdio>

#include "sinew.hpp"

int main() {
    sinew::WorldDef zero{};  // no cookie: refused with SINEW_RESULT_INVALID_ARGUMENT
#if SINEW_CPP_HAS_EXCEPTIONS
    try {
        auto world = sinew::World::create(zero);  // throws here with SINEW_CPP_EXCEPTIONS
        sinew::World& w = world.value();          // and here without it
        std::printf("value() returned a world %p\n", static_cast<void*>(w.get()));
    } catch (const sinew::Error& e) {
        std::printf("threw sinew::Error %s: %s\n", sinew::result_name(e.code()), e.what());
        return e.code() == SINEW_RESULT_INVALID_ARGUMENT ? 0 : 1;
    }
#else
    auto world = sinew::World::create(zero);
    sinew::World& w = world.value();  // aborts
    std::printf("value() returned a world %p\n", static_cast<void*>(w.get()));
#endif
    return 1;
}
