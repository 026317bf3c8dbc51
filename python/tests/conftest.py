import menagerie
import pytest

VARIANTS = menagerie.variants()
PERFECT = [v for v in VARIANTS if not menagerie.Game(v).has_hidden_information()]
HIDDEN = [v for v in VARIANTS if menagerie.Game(v).has_hidden_information()]


@pytest.fixture(params=VARIANTS)
def variant(request):
    return request.param
