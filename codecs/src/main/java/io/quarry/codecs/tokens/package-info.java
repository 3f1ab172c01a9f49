/**
 * Segmentation of raw events into the terms the term index holds, Splunk-style: major breakers
 * split an event into tokens, minor breakers split tokens into parts, and both the parts and the
 * whole tokens are indexed, lower-cased.
 */
package io.quarry.codecs.tokens;
