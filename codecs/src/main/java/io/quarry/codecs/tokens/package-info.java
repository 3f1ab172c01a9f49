/**
 * Segmentation of raw events into the terms the term index holds, Splunk-style: major breakers
 * split an event into tokens, minor breakers split tokens into parts, and both the parts and the
 * prefixes ending at a minor breaker are indexed, lower-cased.
 */
package io.quarry.codecs.tokens;
