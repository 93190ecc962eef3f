package dev.keel.controlplane.shared;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.stereotype.Component;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * JSON values mean what they say: an integer is never read from {@code 3.9} or {@code "4"}, a
 * number never from a string, a string never from a number or boolean, an enum never from its
 * index, and a property the type does not have is an error. Only an integer where a number is
 * expected is taken as it is, and, as JSON Schema counts them, a number without a fraction
 * ({@code 3.0}, {@code 3e0}) where an integer is.
 */
@Component
class StrictJson implements JsonMapperBuilderCustomizer {

    @Override
    public void customize(JsonMapper.Builder builder) {
        builder.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfig(LogicalType.Integer, c -> refuse(c, CoercionInputShape.String, CoercionInputShape.Float,
                        CoercionInputShape.Boolean))
                .withCoercionConfig(LogicalType.Float, c -> refuse(c, CoercionInputShape.String, CoercionInputShape.Boolean))
                .withCoercionConfig(LogicalType.Boolean, c -> refuse(c, CoercionInputShape.String, CoercionInputShape.Integer))
                .withCoercionConfig(LogicalType.Textual, c -> refuse(c, CoercionInputShape.Integer, CoercionInputShape.Float,
                        CoercionInputShape.Boolean))
                .withCoercionConfig(LogicalType.Enum, c -> refuse(c, CoercionInputShape.Integer))
                .withCoercionConfig(LogicalType.DateTime, c -> refuse(c, CoercionInputShape.Integer, CoercionInputShape.Float))
                .addModule(new SimpleModule("whole-numbers").addDeserializer(Integer.class, new WholeNumbers()));
    }

    private static void refuse(MutableCoercionConfig config, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            config.setCoercion(shape, CoercionAction.Fail);
        }
    }

    /** An integer is a JSON number whose value has no fraction, however it is written; anything else is refused. */
    private static final class WholeNumbers extends StdScalarDeserializer<Integer> {

        WholeNumbers() {
            super(Integer.class);
        }

        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) {
            if (parser.hasToken(JsonToken.VALUE_NUMBER_INT)) {
                return parser.getIntValue();
            }
            if (parser.hasToken(JsonToken.VALUE_NUMBER_FLOAT)) {
                try {
                    return parser.getDecimalValue().intValueExact();
                } catch (ArithmeticException fractionOrTooLarge) {
                    // refused below, like any other value that is not an integer
                }
            }
            return (Integer) context.handleUnexpectedToken(Integer.class, parser);
        }
    }
}
