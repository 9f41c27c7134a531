// The kernel's step statistics are summed by the threads in whatever order
// they finish (sim/fish_kernel.hpp StepStats): the sums must not depend on it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "math/exact_sum.hpp"

using namespace mirofish;

namespace {

double sumOf(const std::vector<double>& terms, std::size_t from, std::size_t to) {
    ExactSum s;
    for (std::size_t i = from; i < to; ++i) s.add(terms[i]);
    return s.value();
}

}  // namespace

TEST_CASE("a sum of floats is the same in any order and from parts added in any order, and close to the exact sum") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> exponent(-3.0, 6.0);
    std::vector<double> terms;
    for (int i = 0; i < 20000; ++i) {
        const float magnitude = static_cast<float>(std::pow(10.0, exponent(rng)));
        terms.push_back(static_cast<double>(i % 7 == 0 ? -magnitude : magnitude));
    }
    const double forward = sumOf(terms, 0, terms.size());
    // A double sum of these terms depends on their order; this one must not.
    std::vector<double> shuffled = terms;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    CHECK(sumOf(shuffled, 0, shuffled.size()) == forward);
    std::reverse(shuffled.begin(), shuffled.end());
    CHECK(sumOf(shuffled, 0, shuffled.size()) == forward);
    // Parts summed apart, then added in two orders.
    const std::size_t a = 4321, b = 15000;
    ExactSum p0, p1, p2;
    for (std::size_t i = 0; i < a; ++i) p0.add(terms[i]);
    for (std::size_t i = a; i < b; ++i) p1.add(terms[i]);
    for (std::size_t i = b; i < terms.size(); ++i) p2.add(terms[i]);
    ExactSum oneOrder = p2, otherOrder = p0;
    oneOrder.add(p0);
    oneOrder.add(p1);
    otherOrder.add(p1);
    otherOrder.add(p2);
    CHECK(oneOrder.value() == forward);
    CHECK(otherOrder.value() == forward);
    // The exact sum, slowly: in long double, smallest magnitudes first.
    std::vector<double> bySize = terms;
    std::sort(bySize.begin(), bySize.end(), [](double x, double y) { return std::fabs(x) < std::fabs(y); });
    long double exact = 0;
    for (const double t : bySize) exact += t;
    // Each term is cut to a whole number of 2^-32 once.
    CHECK(std::fabs(static_cast<double>(exact) - forward) <= static_cast<double>(terms.size()) * 0x1p-32 + 1e-9 * std::fabs(forward));
}

TEST_CASE("a sum with a term that is not finite is NaN or infinite, as a float sum is, whatever the order") {
    constexpr double inf = std::numeric_limits<double>::infinity();
    ExactSum plus, minus, both, withNan;
    for (const double t : {1.0, inf, 2.0}) plus.add(t);
    for (const double t : {-inf, 3.0}) minus.add(t);
    both.add(plus);
    both.add(minus);
    withNan.add(5.0);
    withNan.add(std::numeric_limits<double>::quiet_NaN());
    ExactSum merged;
    merged.add(withNan);
    merged.add(plus);
    CHECK(plus.value() == inf);
    CHECK(minus.value() == -inf);
    CHECK(std::isnan(both.value()));
    CHECK(std::isnan(withNan.value()));
    CHECK(std::isnan(merged.value()));
    CHECK(ExactSum{}.value() == 0.0);
}
