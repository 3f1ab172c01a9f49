/**
 * JMH benchmarks, one class per layer concern. Run with {@code ./mvnw -pl benchmarks -am package
 * -DskipTests && java -jar benchmarks/target/benchmarks.jar [regex]}; see {@code
 * benchmarks/README.md}.
 */
package io.quarry.benchmarks;
