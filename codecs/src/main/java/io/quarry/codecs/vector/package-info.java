/**
 * Whether this JVM runs the JDK's Vector API as SIMD code ({@link
 * io.quarry.codecs.vector.VectorSupport}): asked once by each classifier that has a vector and a
 * scalar form (the term set's byte classes in the codecs, the key=value scan's {@code =} pass in
 * the server).
 */
package io.quarry.codecs.vector;
