package io.quarry.server.metricindex;

import io.prometheus.metrics.shaded.com_google_protobuf_4_35_0.DescriptorProtos.DescriptorProto;
import io.prometheus.metrics.shaded.com_google_protobuf_4_35_0.DescriptorProtos.FieldDescriptorProto;
import io.prometheus.metrics.shaded.com_google_protobuf_4_35_0.DescriptorProtos.FileDescriptorProto;
import io.prometheus.metrics.shaded.com_google_protobuf_4_35_0.Descriptors;
import io.prometheus.metrics.shaded.com_google_protobuf_4_35_0.DynamicMessage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * Remote-write request bodies as Prometheus sends them, made by real encoders: the protobuf runtime
 * (the copy the Prometheus Java client shades, already on the classpath) over a descriptor of
 * prompb's {@code remote.proto}/{@code types.proto} messages with their field numbers, built here,
 * and snappy-java's block compressor (what Prometheus' Go snappy.Encode writes).
 */
public final class RemoteWriteRequests {
  private static final Descriptors.FileDescriptor PROMPB = prompb();

  /** A sample: milliseconds and a value. */
  public record Sample(long timestampMillis, double value) {}

  /** A time series: labels (with {@code __name__}) and samples. */
  public record Series(Map<String, String> labels, List<Sample> samples) {}

  private RemoteWriteRequests() {}

  private static FieldDescriptorProto field(
      String name, int number, FieldDescriptorProto.Type type, String message, boolean repeated) {
    FieldDescriptorProto.Builder field =
        FieldDescriptorProto.newBuilder()
            .setName(name)
            .setNumber(number)
            .setType(type)
            .setLabel(
                repeated
                    ? FieldDescriptorProto.Label.LABEL_REPEATED
                    : FieldDescriptorProto.Label.LABEL_OPTIONAL);
    if (message != null) {
      field.setTypeName(".prometheus." + message);
    }
    return field.build();
  }

  private static Descriptors.FileDescriptor prompb() {
    var string = FieldDescriptorProto.Type.TYPE_STRING;
    var message = FieldDescriptorProto.Type.TYPE_MESSAGE;
    var dbl = FieldDescriptorProto.Type.TYPE_DOUBLE;
    var int64 = FieldDescriptorProto.Type.TYPE_INT64;
    FileDescriptorProto file =
        FileDescriptorProto.newBuilder()
            .setName("prompb.proto")
            .setPackage("prometheus")
            .setSyntax("proto3")
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("Label")
                    .addField(field("name", 1, string, null, false))
                    .addField(field("value", 2, string, null, false)))
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("Sample")
                    .addField(field("value", 1, dbl, null, false))
                    .addField(field("timestamp", 2, int64, null, false)))
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("Exemplar")
                    .addField(field("labels", 1, message, "Label", true))
                    .addField(field("value", 2, dbl, null, false))
                    .addField(field("timestamp", 3, int64, null, false)))
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("TimeSeries")
                    .addField(field("labels", 1, message, "Label", true))
                    .addField(field("samples", 2, message, "Sample", true))
                    .addField(field("exemplars", 3, message, "Exemplar", true)))
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("MetricMetadata") // type is an enum in prompb: a varint either way
                    .addField(field("type", 1, FieldDescriptorProto.Type.TYPE_INT32, null, false))
                    .addField(field("metric_family_name", 2, string, null, false))
                    .addField(field("help", 4, string, null, false))
                    .addField(field("unit", 5, string, null, false)))
            .addMessageType(
                DescriptorProto.newBuilder()
                    .setName("WriteRequest")
                    .addField(field("timeseries", 1, message, "TimeSeries", true))
                    .addField(field("metadata", 3, message, "MetricMetadata", true)))
            .build();
    try {
      return Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0]);
    } catch (Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DynamicMessage.Builder builder(String type) {
    return DynamicMessage.newBuilder(PROMPB.findMessageTypeByName(type));
  }

  private static void add(DynamicMessage.Builder to, String field, DynamicMessage value) {
    to.addRepeatedField(to.getDescriptorForType().findFieldByName(field), value);
  }

  private static DynamicMessage label(String name, String value) {
    DynamicMessage.Builder label = builder("Label");
    label.setField(label.getDescriptorForType().findFieldByName("name"), name);
    label.setField(label.getDescriptorForType().findFieldByName("value"), value);
    return label.build();
  }

  /**
   * The uncompressed protobuf of a {@code WriteRequest}; with {@code extras}, each series also
   * carries an exemplar and the request a metadata entry (which the reader must skip).
   */
  public static byte[] protobuf(List<Series> series, boolean extras) {
    DynamicMessage.Builder request = builder("WriteRequest");
    for (Series s : series) {
      DynamicMessage.Builder timeSeries = builder("TimeSeries");
      s.labels().forEach((name, value) -> add(timeSeries, "labels", label(name, value)));
      for (Sample sample : s.samples()) {
        DynamicMessage.Builder encoded = builder("Sample");
        encoded.setField(encoded.getDescriptorForType().findFieldByName("value"), sample.value());
        encoded.setField(
            encoded.getDescriptorForType().findFieldByName("timestamp"), sample.timestampMillis());
        add(timeSeries, "samples", encoded.build());
      }
      if (extras) {
        DynamicMessage.Builder exemplar = builder("Exemplar");
        add(exemplar, "labels", label("trace_id", "abc123"));
        exemplar.setField(exemplar.getDescriptorForType().findFieldByName("value"), 1.5);
        add(timeSeries, "exemplars", exemplar.build());
      }
      add(request, "timeseries", timeSeries.build());
    }
    if (extras) {
      DynamicMessage.Builder metadata = builder("MetricMetadata");
      metadata.setField(metadata.getDescriptorForType().findFieldByName("type"), 1);
      metadata.setField(
          metadata.getDescriptorForType().findFieldByName("metric_family_name"), "x_total");
      metadata.setField(metadata.getDescriptorForType().findFieldByName("help"), "Some help.");
      add(request, "metadata", metadata.build());
    }
    return request.build().toByteArray();
  }

  /** The body Prometheus sends: the protobuf snappy-compressed (block format). */
  public static byte[] body(List<Series> series, boolean extras) {
    try {
      return Snappy.compress(protobuf(series, extras));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
