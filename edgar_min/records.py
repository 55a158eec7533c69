"""Typed records: the part of `dataclasses` edgar uses, at a fraction of its start-up cost.

`import dataclasses` brings `inspect`, `ast`, `dis`, `tokenize` and `copy` with it, and each
class it processes compiles several generated methods: together more than the bare interpreter's
own start-up, paid by every per-turn command. `dataclass` here has the standard call shape
(`@dataclass(frozen=True, slots=True)`), so a class reads as every Python reader expects and
swapping the import for the standard one changes nothing the package relies on. It compiles one
small `__init__` per class (arguments in annotation order, defaults, a factory called per
instance, then `__post_init__` if the class has one), which builds a record faster than the
standard one does, once the class has built a few records: until then a shared binder with the
same arguments builds them, since most classes of a run build one record or none. `__eq__`,
`__hash__`, `__repr__` and frozenness are closures or functions shared by every class, so nothing
else is compiled. A frozen record refuses assignment with
`FrozenRecordError` (an `AttributeError`); its `__post_init__` sets fields with
`object.__setattr__`, as with a frozen dataclass. Every record has `__slots__`. Not supported, on
purpose, and refused when the class is made: `slots=False`, a record inheriting from a record;
absent: ordering, `kw_only`, `InitVar`.
"""

from __future__ import annotations

try:  # operator's C half: on 3.12+ the interpreter imports neither, and operator.py costs more
    from _operator import attrgetter
except ImportError:  # an interpreter without it
    from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, dataclass_transform
else:

    def dataclass_transform(**_kwargs):
        """Lets a type checker read these classes as it reads dataclasses; nothing at run time."""
        return lambda decorator: decorator


__all__ = ["Field", "FrozenRecordError", "asdict", "dataclass", "field", "fields", "replace"]

_mappingproxy = type(type.__dict__)  # types.MappingProxyType, without importing types
_NO_METADATA = _mappingproxy({})


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _Factory:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()  # the default an `__init__` shows for a field made by its factory


class FrozenRecordError(AttributeError):
    """Raised on assigning to (or deleting) a field of a frozen record."""


class Field:
    """One field of a record: its name, its annotation as written, its default and metadata."""

    __slots__ = ("default", "default_factory", "metadata", "name", "repr", "type")

    def __init__(self, default: Any, default_factory: Any, metadata: Any, repr: bool) -> None:  # noqa: A002
        if default is not MISSING and default_factory is not MISSING:
            msg = "a field takes a default or a default_factory, not both"
            raise ValueError(msg)
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.metadata = _NO_METADATA if metadata is None else _mappingproxy(dict(metadata))
        self.repr = repr

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
    metadata: dict[str, Any] | None = None,
    repr: bool = True,  # noqa: A002 - the name dataclasses gives it
) -> Any:
    """A field with a default, a factory called for each new record, metadata, or hidden from repr."""
    return Field(default, default_factory, metadata, repr)


@dataclass_transform(field_specifiers=(field, Field))
def dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    """Make `cls` a record: `@dataclass(frozen=True, slots=True)`, or `slots=True` alone for a mutable one."""
    if not slots:
        msg = "a record always has __slots__: write @dataclass(slots=True) (and frozen=True for a value)"
        raise TypeError(msg)
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def fields(class_or_record: Any) -> tuple[Field, ...]:
    """The fields of a record class (or of a record), in annotation order."""
    try:
        return class_or_record.__record_fields__
    except AttributeError:
        msg = f"{class_or_record!r} is not a record or a record class"
        raise TypeError(msg) from None


def replace(obj: Any, /, **changes: Any) -> Any:
    """A new record like `obj` with `changes` (its `__post_init__` runs again); `obj` is left alone."""
    names = _names(obj)
    unknown = changes.keys() - set(names)
    if unknown:
        msg = f"{type(obj).__qualname__} has no field {min(unknown)!r}"
        raise TypeError(msg)
    return type(obj)(**{n: changes[n] if n in changes else getattr(obj, n) for n in names})


def asdict(obj: Any) -> dict[str, Any]:
    """The record as a dict, records, lists, tuples and dicts within it converted in turn.

    Other values are shared, not copied (dataclasses deep-copies them; no record here holds one
    that anybody mutates).
    """
    _names(obj)
    return _plain(obj)


def _names(obj: Any) -> tuple[str, ...]:
    names = getattr(type(obj), "__record_names__", None)
    if names is None:
        msg = f"expected a record, not {type(obj).__qualname__}"
        raise TypeError(msg)
    return names


def _plain(value: Any) -> Any:
    kind = type(value)
    if hasattr(kind, "__record_names__"):
        return {n: _plain(getattr(value, n)) for n in kind.__record_names__}
    if kind is list or kind is tuple:
        return kind(_plain(v) for v in value)
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


# `__eq__` and `__hash__` are closures over the class's field getter, so making a class compiles
# nothing for them. Per call they are slower than generated code (bench/bench_records.py: about
# 1.4-1.9x, some 100 ns); `skills list`, `suggest`, `doctor` and `validate` call neither.


def _eq_hash(key: Callable[[Any], Any]) -> tuple[Callable[..., Any], Callable[[Any], int]]:
    def __eq__(self: Any, other: Any) -> Any:  # noqa: N807 - named as the method it becomes
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:  # noqa: N807
        return hash(key(self))

    return __eq__, __hash__


class _Signature:
    """`inspect.signature(Record)`: the compiled `__init__`'s, made when somebody asks for it."""

    __slots__ = ()

    def __get__(self, record: Any, cls: type) -> Any:
        if record is not None:
            return None  # a record is not callable: inspect asks the class
        import inspect

        init = cls.__init__
        if not hasattr(init, "__code__") or init.__code__.co_flags & inspect.CO_VARARGS:
            init = _init(cls, list(cls.__record_fields__), cls.__setattr__ is _frozen_setattr)
            cls.__init__ = init
        signature = inspect.signature(init)
        return signature.replace(parameters=tuple(signature.parameters.values())[1:])


_SIGNATURE = _Signature()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__ if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
    # pickle and copy rebuild through __init__: the default way assigns slots, which frozen refuses.
    return type(self), tuple(getattr(self, n) for n in self.__record_names__)


def _frozen_setattr(self: Any, name: str, _value: Any) -> None:
    msg = f"cannot assign to {_what(self, name)}: a {type(self).__qualname__} is frozen"
    raise FrozenRecordError(msg)


def _frozen_delattr(self: Any, name: str) -> None:
    msg = f"cannot delete {_what(self, name)}: a {type(self).__qualname__} is frozen"
    raise FrozenRecordError(msg)


def _what(self: Any, name: str) -> str:
    return f"field {name!r}" if name in self.__record_names__ else f"{name!r} (not a field)"


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return "ClassVar" in text and (
        text in {"ClassVar", "typing.ClassVar"} or text.startswith(("ClassVar[", "typing.ClassVar["))
    )


_MUTABLE = frozenset({list, dict, set})  # defaults every record would share


def _make(cls: type, frozen: bool) -> type:
    bases = cls.__mro__[1:]
    if bases != (object,) and any(hasattr(base, "__record_names__") for base in bases):
        msg = f"record {cls.__qualname__} may not inherit from another record"
        raise TypeError(msg)
    namespace = dict(cls.__dict__)
    if frozen and ("__setattr__" in namespace or "__delattr__" in namespace):
        msg = f"frozen record {cls.__qualname__} may not define __setattr__ or __delattr__"
        raise TypeError(msg)
    annotations = namespace.get("__annotations__") or getattr(cls, "__annotations__", {})
    found: list[Field] = []
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        value = namespace.pop(name, MISSING)
        spec = value if isinstance(value, Field) else Field(value, MISSING, None, repr=True)
        if type(spec.default) in _MUTABLE:
            msg = (
                f"{cls.__qualname__}.{name}: a mutable default is shared by every record; use default_factory"
            )
            raise ValueError(msg)
        spec.name, spec.type = name, annotation
        found.append(spec)
    names = tuple(f.name for f in found)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    namespace["__slots__"] = names
    namespace["__match_args__"] = names
    namespace["__record_fields__"] = tuple(found)
    namespace["__record_names__"] = names
    eq, hash_ = _eq_hash(attrgetter(*names) if names else _no_key)
    namespace.setdefault("__repr__", _repr)
    namespace.setdefault("__eq__", eq)
    namespace.setdefault("__reduce__", _reduce)
    namespace.setdefault("__signature__", _SIGNATURE)
    if frozen:
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_delattr
        if namespace.get("__hash__") is None:
            namespace["__hash__"] = hash_
    else:
        namespace.setdefault("__hash__", None)  # equal by value and mutable: not hashable
    methods = [v for v in cls.__dict__.values() if type(v) not in _PLAIN]  # before ours were added
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    _rebind_class_cells(methods, cls, made)
    if "__init__" not in cls.__dict__:
        made.__init__ = _first_init(made, found, frozen)
    return made


def _no_key(_record: Any) -> tuple[()]:
    return ()


# Compiling a class's `__init__` costs about 55 us, and a per-turn command makes some twenty
# record classes, most of which build one record or none. So a class starts with a shared
# binder (a few microseconds a record); the one compiled for it replaces that at its
# `COMPILE_AFTER`th record, or at once when a call does not bind, so the error is Python's own.
COMPILE_AFTER = 16
_UNSET = object()


def _first_init(cls: type, found: list[Field], frozen: bool) -> Callable[..., None]:
    """The binder a class starts with: the same arguments, defaults and order as the compiled one."""
    names, defaults, factories, setters = [], [], [], []
    members = cls.__dict__
    defaulted = False
    for f in found:  # one pass: a class is made on every run, and most build a record or two
        if f.default is not MISSING or f.default_factory is not MISSING:
            defaulted = True
        elif defaulted:  # said when the class is made, not at its first record
            required = [f.name for f in found if f.default is MISSING and f.default_factory is MISSING]
            late = next(n for n in [g.name for g in found][len(required) :] if n in required)
            msg = f"field {late!r} of {cls.__qualname__} has no default but follows one that has"
            raise TypeError(msg)
        names.append(f.name)
        defaults.append(f.default)
        factories.append(f.default_factory)
        # Slot setters go past a frozen record's refusing __setattr__, as the compiled one does.
        setters.append(members[f.name].__set__)
    index = {name: i for i, name in enumerate(names)}
    post_init = hasattr(cls, "__post_init__")
    calls = 0

    def compiled() -> Callable[..., None]:
        init = _init(cls, found, frozen)
        cls.__init__ = init
        return init

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807 - the method it becomes
        nonlocal calls
        calls += 1
        if calls >= COMPILE_AFTER or len(args) > len(names):
            return compiled()(self, *args, **kwargs)
        values = [*args, *[_UNSET] * (len(names) - len(args))]
        for key, value in kwargs.items():
            i = index.get(key, -1)
            if i < 0 or values[i] is not _UNSET:
                return compiled()(self, *args, **kwargs)  # Python's own sentence for the mistake
            values[i] = value
        for i, given in enumerate(values):
            if given is not _UNSET:
                setters[i](self, given)
            elif defaults[i] is not MISSING:
                setters[i](self, defaults[i])
            elif factories[i] is not MISSING:
                setters[i](self, factories[i]())
            else:
                return compiled()(self, *args, **kwargs)
        if post_init:
            self.__post_init__()
        return None

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def _init(cls: type, found: list[Field], frozen: bool) -> Callable[..., None]:
    """Compile the class's `__init__` once: as fast per record as a hand-written one."""
    scope: dict[str, Any] = {"_FACTORY": _FACTORY}
    params, body = ["self"], []
    seen_default = False
    for f in found:
        name = f.name
        if f.default is not MISSING:
            scope[f"_d_{name}"] = f.default
            params.append(f"{name}=_d_{name}")
            value = name
            seen_default = True
        elif f.default_factory is not MISSING:
            scope[f"_f_{name}"] = f.default_factory
            params.append(f"{name}=_FACTORY")
            value = f"_f_{name}() if {name} is _FACTORY else {name}"
            seen_default = True
        else:
            if seen_default:
                msg = f"field {name!r} of {cls.__qualname__} has no default but follows one that has"
                raise TypeError(msg)
            params.append(name)
            value = name
        if frozen:  # the slot's own setter: past the refusing __setattr__, and faster than object's
            scope[f"_s_{name}"] = cls.__dict__[name].__set__
            body.append(f"    _s_{name}(self, {value})")
        else:
            body.append(f"    self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, scope)  # noqa: S102 - source built above from the class's own identifiers
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


# What a class body's namespace holds that is never a method: its name, docstring, annotations,
# constants. Passed over when the class's methods are searched for `__class__`.
_PLAIN = frozenset({str, dict, tuple, int, float, bool, type(None), frozenset, Field})


def _rebind_class_cells(values: list[Any], old: type, new: type) -> None:
    """Point zero-argument `super()` and `__class__` in the class's methods at the class made here."""
    for value in values:
        methods = (value.fget, value.fset, value.fdel) if isinstance(value, property) else (value,)
        for method in methods:
            func = getattr(method, "__func__", method)  # a classmethod's or staticmethod's function
            code = getattr(func, "__code__", None)
            if code is not None and "__class__" in code.co_freevars:
                cell = func.__closure__[code.co_freevars.index("__class__")]
                if cell.cell_contents is old:
                    cell.cell_contents = new
