package io.quarry.ql.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * What {@code spath} reads: JSON ({@link JsonPaths}) or, when the text is not JSON, XML ({@link
 * XmlPaths}); shared by the command and the {@code spath()} eval function.
 */
public final class Spath {
  private Spath() {}

  /**
   * The values at a path of a JSON or XML document; none when it is neither or nothing is there.
   */
  public static List<Object> extract(String text, List<JsonPaths.Step> steps) {
    JsonNode json = JsonPaths.read(text);
    if (json != null) {
      return JsonPaths.extract(json, steps);
    }
    Element xml = XmlPaths.read(text);
    return xml == null ? List.of() : XmlPaths.extract(xml, steps);
  }

  /** Every path of a JSON or XML document with its values, into {@code fields}. */
  public static void flatten(String text, Map<String, List<Object>> fields) {
    JsonNode json = JsonPaths.read(text);
    if (json != null) {
      JsonPaths.flatten("", json, fields);
      return;
    }
    Element xml = XmlPaths.read(text);
    if (xml != null) {
      XmlPaths.flatten(xml, fields);
    }
  }
}
