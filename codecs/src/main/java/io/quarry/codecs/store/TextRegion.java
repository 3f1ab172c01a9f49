package io.quarry.codecs.store;

/**
 * Where the texts of one block's events lie: {@code bytes[start, end)}, unchanged while its events
 * are read, and the same object for all of them. An ASCII event's {@link StoredEvent#rawText} view
 * is a range of it, so a scan can look for something once over the region (one pass, no stop per
 * event) and then answer each event from what it found ({@code KeyPlaces} in the server).
 */
public record TextRegion(byte[] bytes, int start, int end) {}
