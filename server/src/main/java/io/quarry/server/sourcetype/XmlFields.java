package io.quarry.server.sourcetype;

import io.quarry.ql.exec.XmlPaths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * The fields of an XML event ({@code kvMode: xml}), named as {@code spath} names them: the path of
 * elements from the root joined with {@code .} for an element's text ({@code event.user}), {@code
 * {@name}} after it for an attribute ({@code event.status{@code}}), a path met twice a multivalue.
 */
public final class XmlFields {
  private XmlFields() {}

  /** The fields of {@code raw}, or an empty map when it is no XML document. */
  public static Map<String, List<Object>> flatten(String raw) {
    Element root = XmlPaths.read(raw);
    if (root == null) {
      return Map.of();
    }
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    XmlPaths.flatten(root, fields);
    return fields;
  }
}
