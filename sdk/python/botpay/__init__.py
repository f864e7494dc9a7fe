"""botpay: the Python SDK of the botpay payments service for software agents.

Standard library only. ``Client`` calls the bot API, ``OwnerClient`` the
owner API; ``botpay.webhook.Verifier`` verifies webhook deliveries;
``Client.pay_x402`` pays x402 resources through the service's sign endpoint.
"""

from . import errors, webhook, x402
from .client import Client, SkillFile
from .errors import (
    APIError, AuthenticationError, AwaitingApprovalError, BadRequestError, BotpayError, ConflictError,
    ConnectionFailedError, GoneError, InternalServerError, MethodNotAllowedError, NotFoundError,
    PayloadTooLargeError, PaymentRequiredError, PermissionDeniedError, RateLimitedError,
    ServiceUnavailableError, X402Error,
)
from .owner import OwnerClient
from .pages import Page
from .x402 import PaidResponse

__version__ = "0.1.0"

__all__ = [
    "Client", "OwnerClient", "Page", "PaidResponse", "SkillFile", "errors", "webhook", "x402",
    "APIError", "AuthenticationError", "AwaitingApprovalError", "BadRequestError", "BotpayError",
    "ConflictError", "ConnectionFailedError", "GoneError", "InternalServerError", "MethodNotAllowedError",
    "NotFoundError", "PayloadTooLargeError", "PaymentRequiredError", "PermissionDeniedError",
    "RateLimitedError", "ServiceUnavailableError", "X402Error",
]
