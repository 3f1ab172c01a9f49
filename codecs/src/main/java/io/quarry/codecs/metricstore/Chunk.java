package io.quarry.codecs.metricstore;

/**
 * One encoded chunk of a series in memory (the hot bucket's, or one being written to a warm
 * bucket), with the header facts a query needs to skip it without reading it.
 */
record Chunk(byte[] bytes, long minTime, long maxTime, int count) {
  boolean overlaps(long from, long to) {
    return count > 0 && minTime < to && maxTime >= from && from < to;
  }
}
