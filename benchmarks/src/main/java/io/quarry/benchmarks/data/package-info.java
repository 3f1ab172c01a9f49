/**
 * Benchmark datasets: the reference access log ({@link
 * io.quarry.benchmarks.data.AccessLogGenerator}, a Java port of {@code
 * shared/bench/gen_access_log.py}), generated on demand at any size.
 */
package io.quarry.benchmarks.data;
