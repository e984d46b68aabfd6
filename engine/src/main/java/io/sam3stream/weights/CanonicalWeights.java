package io.sam3stream.weights;

import java.util.Collections;
import java.util.Map;
import java.util.Set;

/** A checkpoint file seen under canonical names: each canonical tensor is built from the file by its recipe. */
final class CanonicalWeights implements WeightSource {

    private final WeightSource stored;
    private final Map<String, TensorRecipe> recipes;
    private final String description;

    CanonicalWeights(WeightSource stored, Map<String, TensorRecipe> recipes, String description) {
        this.stored = stored;
        this.recipes = Collections.unmodifiableMap(recipes);
        this.description = description;
    }

    @Override
    public Set<String> names() {
        return recipes.keySet();
    }

    @Override
    public RawTensor get(String name) {
        TensorRecipe recipe = recipes.get(name);
        if (recipe == null) {
            throw new CheckpointException(description + " has no tensor " + name);
        }
        return recipe.build(stored);
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        stored.close();
    }
}
