package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spath} over XML, and {@code sigfig}'s counting of written numbers. */
class XmlPathsTest {
  private static final String ORDER =
      "<order id='7'><item sku='A1'><name>pen</name></item><item sku='B2'><name>book</name>"
          + "</item></order>";

  @Test
  void pathsAttributesAndIndexesFromOne() {
    assertThat(Spath.extract(ORDER, JsonPaths.parse("order.item.name")))
        .containsExactly("pen", "book");
    assertThat(Spath.extract(ORDER, JsonPaths.parse("order.item{@sku}")))
        .containsExactly("A1", "B2");
    assertThat(Spath.extract(ORDER, JsonPaths.parse("order.item{2}.name"))).containsExactly("book");
    assertThat(Spath.extract(ORDER, JsonPaths.parse("order.item{-1}{@sku}"))).containsExactly("B2");
    assertThat(Spath.extract(ORDER, JsonPaths.parse("other.item"))).isEmpty();
    assertThat(Spath.extract(ORDER, JsonPaths.parse("order.item{1}")))
        .containsExactly("<name>pen</name>");
  }

  @Test
  void everyPath() {
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    Spath.flatten(ORDER, fields);
    assertThat(fields)
        .containsEntry("order{@id}", List.of("7"))
        .containsEntry("order.item{@sku}", List.of("A1", "B2"))
        .containsEntry("order.item.name", List.of("pen", "book"));
  }

  @Test
  void doctypesAndNonXmlAreNotRead() {
    String entity =
        "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>";
    assertThat(XmlPaths.read(entity)).isNull();
    assertThat(XmlPaths.read("plain text")).isNull();
    assertThat(XmlPaths.read("<a><b></a>")).isNull();
  }

  @Test
  void significantFiguresAsWritten() {
    assertThat(SigFig.significantFigures("1.00")).isEqualTo(3);
    assertThat(SigFig.significantFigures("1111")).isEqualTo(4);
    assertThat(SigFig.significantFigures("1100")).isEqualTo(2);
    assertThat(SigFig.significantFigures("0.0450")).isEqualTo(3);
    assertThat(SigFig.significantFigures("-2.5e3")).isEqualTo(2);
    assertThat(SigFig.decimals("2.50")).isEqualTo(2);
    assertThat(SigFig.decimals("7")).isEqualTo(0);
  }
}
