"""The Portuguese translator scenario of issue 28: what a translator types to build a small corpus
from nothing (a race axis, three templates, eight names, two noun-phrase pairs, eight emotion words).
One home for the GUI test that counts its actions and the screenshot tool that shows its screens."""
from __future__ import annotations

AXIS = "race:Raça=branco*,negro"
TEMPLATES = ["{person} está {emotion kind=state}.",  # no gender agreement yet: the checker's fix adds it
             "Eu vi {person} muito {emotion kind=state gender=person.gender}.",
             "{person} sente-se {emotion kind=state gender=person.gender}."]
NAMES = ["Ana f branco", "Beatriz f branco", "João m branco", "Pedro m branco",
         "Jasmine f negro", "Ebony f negro", "Darnell m negro", "Jamal m negro"]
PAIRS = ["minha mãe f ~ meu pai m", "minha irmã f ~ meu irmão m"]
WORDS = ["anger: irritada / irritado", "anger: furiosa / furioso", "fear: assustada / assustado",
         "fear: ansiosa / ansioso", "joy: animada / animado", "joy: encantada / encantado",
         "sadness: deprimida / deprimido", "sadness: desanimada / desanimado"]
