/**
 * The {@code anomalydetection} plugin: the example of a transforming (two-phase) command. Each map
 * operator counts the values it sees per group ({@link
 * io.quarry.plugins.anomalydetection.ValueCounts}) and emits them as state pages; the reduce
 * operator merges the counts and reports the outlying values.
 */
package io.quarry.plugins.anomalydetection;
