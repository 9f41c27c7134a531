#pragma once
// A German locale for LC_NUMERIC while it lives, as Qt sets the user's in
// the editor and `render`: printf's %g then writes 0,95. Built with
// localedef into a temporary folder (the system may have none installed).
#include <catch2/catch.hpp>
#include <clocale>
#include <cstdlib>
#include <string>

#include "support/sim_fixtures.hpp"

namespace mirofish::test {

class DecimalCommaLocale {
public:
    DecimalCommaLocale() {
        const std::string build = "localedef -i de_DE -f UTF-8 '" + (dir_.path() / "de_DE.UTF-8").string() + "' 2>&1";
        REQUIRE(std::system(build.c_str()) == 0);
        REQUIRE(::setenv("LOCPATH", dir_.path().c_str(), 1) == 0);
        REQUIRE(std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr);
    }
    ~DecimalCommaLocale() {
        std::setlocale(LC_NUMERIC, "C");
        ::unsetenv("LOCPATH");
    }
    DecimalCommaLocale(const DecimalCommaLocale&) = delete;
    DecimalCommaLocale& operator=(const DecimalCommaLocale&) = delete;

private:
    TempDir dir_;
};

}  // namespace mirofish::test
