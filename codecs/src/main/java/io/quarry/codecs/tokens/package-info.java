/**
 * Segmentation of raw events into the terms the term index holds, Splunk-style: major breakers
 * split an event into tokens, minor breakers split tokens into parts, and both the parts and the
 * whole tokens are indexed, lower-cased. {@link io.quarry.codecs.tokens.Segmenter} is the
 * definition; {@link io.quarry.codecs.tokens.TermTokenStream} one text's terms for Lucene; {@link
 * io.quarry.codecs.tokens.TermSet} a block's distinct terms, an ASCII text's bytes classified into
 * bit masks first ({@code AsciiClasses}, with the Vector API where the JVM has it; a JVM without it
 * splits by a byte-class table instead, {@code TableSplit}).
 */
package io.quarry.codecs.tokens;
