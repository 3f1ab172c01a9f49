package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class RowPredicatesTest {
  private static Predicate<Row> compile(String search) {
    SearchCommand command =
        (SearchCommand) new Parser(CommandRegistry.builtIns()).parse(search).commands().get(0);
    return RowPredicates.compile(command.expression().orElseThrow());
  }

  private final Row web =
      TestRow.of(
          "GET /cart.do 404 from Mozilla",
          "status",
          "404",
          "clientip",
          "10.1.2.3",
          "host",
          "WWW1",
          "bytes",
          "1200");
  private final Row multi = TestRow.of("x", "tag", List.of("a", "b"));

  @Test
  void equalityIsCaseInsensitiveNumericAndWildcarded() {
    assertThat(compile("host=www1").test(web)).isTrue();
    assertThat(compile("host=ww*").test(web)).isTrue();
    assertThat(compile("host=*1").test(web)).isTrue();
    assertThat(compile("host=db*").test(web)).isFalse();
    assertThat(compile("status=404.0").test(web)).isTrue();
    assertThat(compile("clientip=10.0.0.0/8").test(web)).isTrue();
    assertThat(compile("clientip=192.168.0.0/16").test(web)).isFalse();
    assertThat(compile("tag=b").test(multi)).isTrue();
  }

  @Test
  void notEqualNeedsTheFieldButNotDoesNot() {
    assertThat(compile("missing!=1").test(web)).isFalse();
    assertThat(compile("NOT missing=1").test(web)).isTrue();
    assertThat(compile("status!=200").test(web)).isTrue();
  }

  @Test
  void orderingIsNumericForNumbersAndLexicalOtherwise() {
    assertThat(compile("bytes>999").test(web)).isTrue();
    assertThat(compile("bytes>=1200 bytes<=1200").test(web)).isTrue();
    assertThat(compile("bytes<1000").test(web)).isFalse();
    assertThat(compile("host>WWW0").test(web)).isTrue();
  }

  @Test
  void termsPhrasesAndBooleanStructure() {
    assertThat(compile("mozilla 404").test(web)).isTrue();
    assertThat(compile("\"cart.do 404\"").test(web)).isTrue();
    assertThat(compile("moz*").test(web)).isTrue();
    assertThat(compile("firefox OR status IN (500, 404)").test(web)).isTrue();
    assertThat(compile("NOT (firefox OR chrome) status=404").test(web)).isTrue();
    assertThat(compile("firefox OR chrome").test(web)).isFalse();
  }
}
