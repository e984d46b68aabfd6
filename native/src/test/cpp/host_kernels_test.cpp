// Unit tests of the host implementation's numeric kernels against double-precision references, for every
// kernel set this CPU can run. Run by ctest (and so by `mvn verify`).
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/attention.hpp"
#include "host/bf16_attention.hpp"
#include "host/cpu_kernels.hpp"
#include "host/gemm.hpp"
#include "host/thread_pool.hpp"
#include "test_checks.hpp"

using namespace sam3n::host;
using sam3n::testing::check;
using sam3n::testing::finish;

namespace {

std::vector<float> random_values(std::size_t n, unsigned seed, float scale = 1.0f) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) {
        x = dist(gen);
    }
    return v;
}

/** scores[j] = exp(scores[j] - max), the unnormalised softmax of a row; returns their sum. */
double exponentiate(std::vector<double>& scores, double max) {
    double sum = 0.0;
    for (double& score : scores) {
        score = std::exp(score - max);
        sum += score;
    }
    return sum;
}

double gelu_reference(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

// C = A B with B given as W^T (w: n x k) or plainly (b: k x n), every epilogue, serial and threaded.
void gemm_matches_reference(const CpuKernels& kernels, ThreadPool& pool, int64_t m, int64_t k, int64_t n) {
    const int64_t lda = k + 3;
    const int64_t ldw = k + 1;
    const int64_t ldc = n + 2;
    std::vector<float> a = random_values(static_cast<std::size_t>(m * lda), 1);
    std::vector<float> w = random_values(static_cast<std::size_t>(n * ldw), 2);
    std::vector<float> bias = random_values(static_cast<std::size_t>(n), 3);
    std::vector<float> start = random_values(static_cast<std::size_t>(m * ldc), 4);
    std::vector<float> b_plain(static_cast<std::size_t>(k * n));
    for (int64_t p = 0; p < k; ++p) {
        for (int64_t j = 0; j < n; ++j) {
            b_plain[static_cast<std::size_t>(p * n + j)] = w[static_cast<std::size_t>(j * ldw + p)];
        }
    }
    PackedB transposed, plain;
    transposed.pack_transposed(w.data(), n, k, ldw, kernels.nr);
    plain.pack(b_plain.data(), k, n, n, kernels.nr);

    struct Case {
        const char* name;
        Epilogue epilogue;
    };
    Epilogue relu{bias.data(), Activation::relu, false};
    Epilogue gelu{bias.data(), Activation::gelu, false};
    Epilogue residual{bias.data(), Activation::none, true};
    const Case cases[] = {{"plain", Epilogue{}}, {"bias+relu", relu}, {"bias+gelu", gelu}, {"residual", residual}};
    for (const Case& cs : cases) {
        for (int variant = 0; variant < 4; ++variant) {
            const PackedB& b = variant % 2 == 0 ? transposed : plain;
            ThreadPool* threads = variant < 2 ? nullptr : &pool;
            std::vector<float> c = start;
            gemm(kernels, m, a.data(), lda, b, c.data(), ldc, cs.epilogue, threads);
            double worst = 0.0;
            for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                    double sum = 0.0;
                    double magnitude = 0.0;
                    for (int64_t p = 0; p < k; ++p) {
                        double term = double(a[static_cast<std::size_t>(i * lda + p)]) *
                                      w[static_cast<std::size_t>(j * ldw + p)];
                        sum += term;
                        magnitude += std::fabs(term);
                    }
                    const Epilogue& e = cs.epilogue;
                    if (e.accumulate) {
                        sum += start[static_cast<std::size_t>(i * ldc + j)];
                    }
                    if (e.bias != nullptr) {
                        sum += bias[static_cast<std::size_t>(j)];
                    }
                    if (e.activation == Activation::relu) {
                        sum = sum > 0 ? sum : 0;
                    } else if (e.activation == Activation::gelu) {
                        sum = gelu_reference(sum);
                    }
                    double err = std::fabs(sum - c[static_cast<std::size_t>(i * ldc + j)]) / (1.0 + magnitude);
                    worst = std::max(worst, err);
                }
                // Padding between rows is never written.
                for (int64_t j = n; j < ldc; ++j) {
                    check(c[static_cast<std::size_t>(i * ldc + j)] == start[static_cast<std::size_t>(i * ldc + j)],
                          "gemm wrote past the row end");
                }
            }
            check(worst < 1e-5, std::string(kernels.name) + " gemm " + cs.name + " m=" + std::to_string(m) +
                                    " k=" + std::to_string(k) + " n=" + std::to_string(n) + " variant " +
                                    std::to_string(variant) + ": relative error " + std::to_string(worst));
        }
    }
}

void softmax_matches_reference(const CpuKernels& kernels) {
    for (int64_t n : {1, 3, 8, 33, 1000}) {
        std::vector<float> x = random_values(static_cast<std::size_t>(n), 5, 4.0f);
        if (n > 2) {
            x[1] = -std::numeric_limits<float>::infinity();
        }
        std::vector<float> y = x;
        const float scale = 0.25f;
        kernels.softmax(y.data(), n, scale);
        double max = -INFINITY;
        for (float v : x) {
            max = std::max(max, double(v));
        }
        double sum = 0.0;
        for (float v : x) {
            sum += std::exp((double(v) - max) * scale);
        }
        for (int64_t i = 0; i < n; ++i) {
            double ref = std::exp((double(x[static_cast<std::size_t>(i)]) - max) * scale) / sum;
            double got = y[static_cast<std::size_t>(i)];
            // float accumulation of the denominator bounds the relative accuracy
            check(std::fabs(got - ref) <= 2e-6 * ref + 1e-30,
                  std::string(kernels.name) + " softmax n=" + std::to_string(n) + " i=" + std::to_string(i) +
                      ": " + std::to_string(got) + " vs " + std::to_string(ref));
        }
        if (n > 2) {
            check(y[1] == 0.0f, std::string(kernels.name) + " softmax gives a masked key probability 0");
        }
    }
}

// The erf inside is Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7, as PyTorch's vectorised CPU erf), so
// GELU may differ from the exact value by x / 2 * 1.5e-7 plus float rounding.
void gelu_matches_erf(const CpuKernels& kernels) {
    std::vector<float> x;
    for (float v = -12.0f; v <= 12.0f; v += 0.001f) {
        x.push_back(v);
    }
    std::vector<float> y = x;
    kernels.gelu(y.data(), static_cast<int64_t>(y.size()));
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        double ref = gelu_reference(x[i]);
        double bound = 0.5 * std::fabs(x[i]) * 1.5e-7 + 4e-7 * std::fabs(ref) + 1e-12;
        worst = std::max(worst, std::fabs(y[i] - ref) / bound);
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", worst);
    check(worst <= 1.0, std::string(kernels.name) + " gelu error at " + text + " of the bound");
}

void attention_matches_reference(const CpuKernels& kernels, ThreadPool& pool) {
    const int hd = 16;
    const int64_t lq = 130;
    const int64_t lk = 37;
    const int64_t ld = 3 * hd;
    std::vector<float> q = random_values(static_cast<std::size_t>(lq * ld), 7);
    std::vector<float> kv = random_values(static_cast<std::size_t>(lk * ld), 8);
    std::vector<uint8_t> padding(static_cast<std::size_t>(lk), 0);
    padding[0] = padding[5] = padding[36] = 1;
    std::vector<float> out(static_cast<std::size_t>(lq * hd), 0.0f);
    std::vector<AttentionHead> heads{
        {q.data(), ld, lq, kv.data(), ld, kv.data() + hd, ld, lk, padding.data(), out.data(), hd}};
    attention(heads, hd, kernels, pool);
    double worst = 0.0;
    for (int64_t i = 0; i < lq; ++i) {
        std::vector<double> s(static_cast<std::size_t>(lk));
        double max = -INFINITY;
        for (int64_t j = 0; j < lk; ++j) {
            double dot = 0.0;
            for (int d = 0; d < hd; ++d) {
                dot += double(q[static_cast<std::size_t>(i * ld + d)]) * kv[static_cast<std::size_t>(j * ld + d)];
            }
            s[static_cast<std::size_t>(j)] = padding[static_cast<std::size_t>(j)] ? -INFINITY : dot / std::sqrt(hd);
            max = std::max(max, s[static_cast<std::size_t>(j)]);
        }
        const double sum = exponentiate(s, max);
        for (int d = 0; d < hd; ++d) {
            double ref = 0.0;
            for (int64_t j = 0; j < lk; ++j) {
                ref += s[static_cast<std::size_t>(j)] / sum * kv[static_cast<std::size_t>(j * ld + hd + d)];
            }
            worst = std::max(worst, std::fabs(ref - out[static_cast<std::size_t>(i * hd + d)]));
        }
    }
    check(worst < 1e-5, std::string(kernels.name) + " attention error " + std::to_string(worst));
}

uint16_t to_bf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even (the values here are finite)
    return static_cast<uint16_t>(bits >> 16);
}

float from_bf16(uint16_t b) {
    const uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// The bfloat16 kernel against exact attention (double) of the same bfloat16 inputs. Its two roundings, of the
// probabilities and of the output, each move an output by at most 2^-9 of the largest |v| of its head; the float32
// scores, exp and sums add far less. So the bound is 2^-8 of max |v|.
void bf16_attention_matches_reference(ThreadPool& pool, Bf16AttentionBody body, int64_t batch, int64_t q_tokens,
                                      int64_t kv_tokens, int heads, int head_dim, float spread, bool packed = false) {
    const int64_t ld = static_cast<int64_t>(heads) * head_dim;
    auto narrow = [](const std::vector<float>& values) {
        std::vector<uint16_t> out(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            out[i] = to_bf16(values[i]);
        }
        return out;
    };
    const std::vector<uint16_t> q = narrow(random_values(static_cast<std::size_t>(batch * q_tokens * ld), 11, spread));
    const std::vector<uint16_t> k = narrow(random_values(static_cast<std::size_t>(batch * kv_tokens * ld), 12, spread));
    const std::vector<uint16_t> v = narrow(random_values(static_cast<std::size_t>(batch * kv_tokens * ld), 13));
    std::vector<uint16_t> out(static_cast<std::size_t>(batch * q_tokens * ld), 0xffff);
    const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
    if (packed) {
        // q, k and v of a token side by side in one row, as a packed qkv projection holds them
        std::vector<uint16_t> qkv(static_cast<std::size_t>(batch * q_tokens * 3 * ld));
        for (int64_t row = 0; row < batch * q_tokens; ++row) {
            for (int64_t c = 0; c < ld; ++c) {
                qkv[static_cast<std::size_t>(row * 3 * ld + c)] = q[static_cast<std::size_t>(row * ld + c)];
                qkv[static_cast<std::size_t>(row * 3 * ld + ld + c)] = k[static_cast<std::size_t>(row * ld + c)];
                qkv[static_cast<std::size_t>(row * 3 * ld + 2 * ld + c)] = v[static_cast<std::size_t>(row * ld + c)];
            }
        }
        bf16_attention(qkv.data(), qkv.data() + ld, qkv.data() + 2 * ld, out.data(),
                       {batch, q_tokens, kv_tokens, heads, head_dim, 3 * ld}, scale, pool, body);
    } else {
        bf16_attention(q.data(), k.data(), v.data(), out.data(), {batch, q_tokens, kv_tokens, heads, head_dim, ld},
                       scale, pool, body);
    }
    double worst = 0.0;
    std::vector<double> weights(static_cast<std::size_t>(kv_tokens));
    for (int64_t b = 0; b < batch; ++b) {
        for (int h = 0; h < heads; ++h) {
            double largest_v = 0.0;
            for (int64_t j = 0; j < kv_tokens; ++j) {
                for (int d = 0; d < head_dim; ++d) {
                    largest_v = std::max(largest_v,
                                         std::fabs(double(from_bf16(v[((b * kv_tokens + j) * ld) + h * head_dim + d]))));
                }
            }
            for (int64_t i = 0; i < q_tokens; ++i) {
                const uint16_t* qi = &q[static_cast<std::size_t>((b * q_tokens + i) * ld + h * head_dim)];
                double top = -std::numeric_limits<double>::infinity();
                for (int64_t j = 0; j < kv_tokens; ++j) {
                    const uint16_t* kj = &k[static_cast<std::size_t>((b * kv_tokens + j) * ld + h * head_dim)];
                    double dot = 0.0;
                    for (int d = 0; d < head_dim; ++d) {
                        dot += double(from_bf16(qi[d])) * double(from_bf16(kj[d]));
                    }
                    weights[static_cast<std::size_t>(j)] = dot * scale;
                    top = std::max(top, dot * scale);
                }
                const double sum = exponentiate(weights, top);
                for (int d = 0; d < head_dim; ++d) {
                    double ref = 0.0;
                    for (int64_t j = 0; j < kv_tokens; ++j) {
                        ref += weights[static_cast<std::size_t>(j)] *
                               double(from_bf16(v[static_cast<std::size_t>((b * kv_tokens + j) * ld + h * head_dim + d)]));
                    }
                    const double got = from_bf16(out[static_cast<std::size_t>((b * q_tokens + i) * ld + h * head_dim + d)]);
                    const double error = std::fabs(got - ref / sum) / std::ldexp(largest_v, -8);
                    if (!(error <= worst)) {
                        worst = error;  // a NaN is kept too, and fails the check
                    }
                }
            }
        }
    }
    const std::string text = std::string(body == Bf16AttentionBody::kTiles ? "bf16 attention (tiles)"
                                                                           : "bf16 attention (vectors)") +
                             " batch=" + std::to_string(batch) + " q=" + std::to_string(q_tokens) +
                             " kv=" + std::to_string(kv_tokens) + " heads=" + std::to_string(heads) +
                             " head_dim=" + std::to_string(head_dim) + " spread=" + std::to_string(spread) +
                             (packed ? " packed" : "");
    check(worst <= 1.0, text + ": error at " + std::to_string(worst) + " of the bound");
}

void bf16_attention_matches_reference_where_supported(ThreadPool& pool) {
    if (!bf16_attention_available()) {
        std::printf("SKIPPED: bfloat16 attention kernel checks: this CPU has no AVX512-BF16\n");
        return;
    }
    std::vector<Bf16AttentionBody> bodies{Bf16AttentionBody::kVectors};
    if (bf16_attention_runs(Bf16AttentionBody::kTiles)) {
        bodies.push_back(Bf16AttentionBody::kTiles);
    } else {
        std::printf("SKIPPED: bfloat16 attention kernel checks on tiles: this CPU or OS has no AMX-BF16\n");
    }
    for (const Bf16AttentionBody body : bodies) {
        bf16_attention_matches_reference(pool, body, 1, 1, 1, 1, 2, 1.0f);
        bf16_attention_matches_reference(pool, body, 2, 7, 7, 3, 8, 1.0f);
        bf16_attention_matches_reference(pool, body, 1, 65, 300, 2, 18, 2.0f);
        bf16_attention_matches_reference(pool, body, 2, 37, 257, 4, 32, 1.0f);
        bf16_attention_matches_reference(pool, body, 1, 130, 513, 8, 32, 3.0f);  // peaked softmax: large scores
        bf16_attention_matches_reference(pool, body, 1, 30, 512, 2, 32, 4.0f);   // whole steps only: no key masked
        bf16_attention_matches_reference(pool, body, 1, 50, 200, 2, 64, 1.0f);
        bf16_attention_matches_reference(pool, body, 1, 33, 224, 2, 40, 1.0f);   // last step a whole probability tile
        bf16_attention_matches_reference(pool, body, 3, 70, 70, 2, 64, 1.0f, true);  // ViT windows: one packed qkv
        bool refused = false;
        try {
            uint16_t one = 0;
            bf16_attention(&one, &one, &one, &one, {1, 1, 1, 1, 66, 66}, 1.0f, pool, body);
        } catch (const std::exception&) {
            refused = true;
        }
        check(refused, "bf16 attention refuses a head wider than it takes");
    }
}

void thread_pool_runs_every_index_once_and_rethrows() {
    ThreadPool pool(4);
    std::vector<std::atomic<int>> seen(1000);
    pool.parallel_for(1000, [&](int64_t i) { seen[static_cast<std::size_t>(i)]++; });
    bool once = true;
    for (auto& s : seen) {
        once = once && s.load() == 1;
    }
    check(once, "thread pool visits each index exactly once");
    bool thrown = false;
    try {
        pool.parallel_for(100, [&](int64_t i) {
            if (i == 42) {
                throw std::runtime_error("task 42");
            }
        });
    } catch (const std::runtime_error& e) {
        thrown = std::string(e.what()) == "task 42";
    }
    check(thrown, "thread pool rethrows a task's exception");
    std::atomic<int> after{0};
    pool.parallel_for(10, [&](int64_t) { after++; });
    check(after == 10, "thread pool keeps working after a task threw");
}

}  // namespace

int main() {
    ThreadPool pool(3);
    int count = 0;
    const CpuKernels* const* sets = available_cpu_kernels(&count);
    for (int s = 0; s < count; ++s) {
        const CpuKernels& kernels = *sets[s];
        std::printf("kernels %s (%dx%d)\n", kernels.name, kernels.mr, kernels.nr);
        gemm_matches_reference(kernels, pool, 1, 1, 1);
        gemm_matches_reference(kernels, pool, 7, 3, 5);
        gemm_matches_reference(kernels, pool, 13, 300, 37);
        gemm_matches_reference(kernels, pool, 100, 520, 530);
        gemm_matches_reference(kernels, pool, 200, 17, 1100);
        softmax_matches_reference(kernels);
        gelu_matches_erf(kernels);
        attention_matches_reference(kernels, pool);
    }
    bf16_attention_matches_reference_where_supported(pool);
    thread_pool_runs_every_index_once_and_rethrows();
    return finish("all host kernel checks passed");
}
