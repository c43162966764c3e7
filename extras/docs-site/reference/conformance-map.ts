// Generated from docs/spec-conformance.md by `npm run interface-text`: edit that file and run the script, never this one.
// A test fails when this module is older than the document.

/** A file a row cites, with the symbols or test names it cites in it. */
export interface CitedFile {
  readonly path: string;
  readonly names: readonly string[];
}

/** One clause the implementation maps: the sections, what the spec says, and the code and tests that hold it. */
export interface HeldClause {
  readonly sections: readonly string[];
  readonly labelHtml: string;
  readonly saysHtml: string;
  readonly code: readonly CitedFile[];
  readonly tests: readonly CitedFile[];
  readonly codeNoteHtml?: string;
  readonly testsNoteHtml?: string;
}

/** Where a repository path opens (package.json's `repository`), or undefined: then a path is to open in a clone. */
export const REPOSITORY_FILES_URL: string | undefined = undefined;

/** The rows of docs/spec-conformance.md's table of clauses, in its order. */
export const HELD_CLAUSES: readonly HeldClause[] = [
  {
    "sections": [
      "1"
    ],
    "labelHtml": "",
    "saysHtml": "The service keeps a collection of animals",
    "code": [
      {
        "path": "lib/petstore.ts",
        "names": [
          "createPetstore"
        ]
      },
      {
        "path": "lib/storage/storage.ts",
        "names": [
          "PetStorage"
        ]
      },
      {
        "path": "lib/storage/memory/memory-storage.ts",
        "names": [
          "createMemoryStorage"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPetstore() defaults to an empty in-memory storage",
          "createPetstore() uses the storage it is given"
        ]
      }
    ]
  },
  {
    "sections": [
      "1"
    ],
    "labelHtml": "",
    "saysHtml": "Clients list, add and fetch animals",
    "code": [
      {
        "path": "lib/petstore.ts",
        "names": [
          "PetstoreApi"
        ]
      },
      {
        "path": "extras/client/petstore-client.ts",
        "names": [
          "PetstoreClient"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/client/petstore-client.test.ts",
        "names": [
          "PetstoreClient answers the three operations with the same results as the in-process store"
        ]
      }
    ]
  },
  {
    "sections": [
      "1"
    ],
    "labelHtml": "",
    "saysHtml": "An animal has a name, a category reference and a status",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "NewPet",
          "Pet",
          "NEW_PET_FIELDS"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() returns the pet with an assigned id and the fields sent"
        ]
      }
    ]
  },
  {
    "sections": [
      "1",
      "9"
    ],
    "labelHtml": "",
    "saysHtml": "Both base addresses end in <code>/v1</code>",
    "code": [
      {
        "path": "lib/versioning.ts",
        "names": [
          "VERSION_PATH"
        ]
      },
      {
        "path": "server/core/core.ts",
        "names": [
          "DEFAULT_BASE_PATH"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/routing.test.ts",
        "names": [
          "a path outside the base path is a 404 without auth"
        ]
      },
      {
        "path": "test/extras/docs-site/openapi/document.test.ts",
        "names": [
          "createOpenApiDocument() names the interface version, the /v1 server and root-level bearer security [spec 1, 5, 9]"
        ]
      }
    ]
  },
  {
    "sections": [
      "1"
    ],
    "labelHtml": "",
    "saysHtml": "Bodies are JSON (<code>application/json</code>)",
    "code": [
      {
        "path": "server/core/response.ts",
        "names": [
          "JSON_HEADERS",
          "jsonResponse"
        ]
      },
      {
        "path": "server/core/request.ts",
        "names": [
          "isJsonMediaType",
          "readJsonBody"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet answers 201 with the Pet, a Location and the JSON headers",
          "createPet answers 415 with Accept-Post for any other media type",
          "createPet accepts application/json with parameters, in any case"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "PetStatus",
    "saysHtml": "<code>available</code>, <code>pending</code>, <code>sold</code>",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "PET_STATUSES"
        ]
      },
      {
        "path": "lib/validate.ts",
        "names": [
          "isPetStatus"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() accepts each PetStatus value",
          "createPet() rejects a status outside the enum, case-sensitively, and null"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "NewPet",
    "saysHtml": "<code>name</code>: string, required",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "validateNewPet",
          "nameProblem"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() rejects bad names with a message naming `name`",
          "createPet() stores the name exactly as sent, surrounding spaces included"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "NewPet",
    "saysHtml": "<code>categoryId</code>: integer, int64, required",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "categoryIdProblem"
        ]
      },
      {
        "path": "lib/limits.ts",
        "names": [
          "MAX_SAFE_ID"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() rejects bad categoryIds, never coercing or rounding them",
          "createPet() accepts JSON integers written as 1.0 and 1e2, and the safe-integer bounds"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "NewPet",
    "saysHtml": "<code>status</code>: PetStatus, optional, no default",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "validateNewPet"
        ]
      },
      {
        "path": "lib/validate.ts",
        "names": [
          "freezePet"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() gives no default status: an absent status stays absent"
        ]
      },
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet stores no default status"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "NewPet",
    "saysHtml": "<code>name</code> and <code>categoryId</code> required",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "REQUIRED_NEW_PET_FIELDS"
        ]
      },
      {
        "path": "extras/docs-site/openapi/schemas.ts",
        "names": [
          "COMPONENT_SCHEMAS"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/docs-site/openapi/document.test.ts",
        "names": [
          "createOpenApiDocument() takes the schemas from the constants the validators use"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "Pet",
    "saysHtml": "<code>id</code>: integer, int64, assigned by the service",
    "code": [
      {
        "path": "lib/petstore.ts",
        "names": [
          "checkAssignedId"
        ]
      },
      {
        "path": "lib/storage/storage.ts",
        "names": [
          "PetStorage"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "ids are positive, strictly increasing in creation order and never reused",
          "ids a storage returns outside the safe positive range are refused as a storage defect"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "Pets",
    "saysHtml": "A JSON array of Pet",
    "code": [
      {
        "path": "server/core/pet-json.ts",
        "names": [
          "PetJsonCache"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "listPets"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/list-pets.test.ts",
        "names": [
          "listPets answers a JSON array of 20 pets in ascending id order by default",
          "listPets answers [] on an empty store"
        ]
      }
    ]
  },
  {
    "sections": [
      "2"
    ],
    "labelHtml": "Error",
    "saysHtml": "<code>code</code>, <code>message</code>, <code>status</code> (the HTTP status)",
    "code": [
      {
        "path": "lib/errors.ts",
        "names": [
          "ErrorBody",
          "PetstoreError",
          "toErrorBody"
        ]
      },
      {
        "path": "server/core/error-response.ts",
        "names": [
          "errorResponse"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/errors.test.ts",
        "names": [
          "PetstoreError carries the code, message and the status of its code",
          "toErrorBody() exposes expected errors and hides everything else behind internal_error"
        ]
      }
    ]
  },
  {
    "sections": [
      "3"
    ],
    "labelHtml": "",
    "saysHtml": "An animal's status is one of the three states; a status can be given at creation; no transition is defined",
    "code": [
      {
        "path": "lib/storage/storage.ts",
        "names": [
          "PetStorage"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "ROUTES"
        ]
      },
      {
        "path": "server/core/router.ts",
        "names": [
          "allowedMethods"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "createPet() accepts each PetStatus value"
        ]
      },
      {
        "path": "test/server/core/routing.test.ts",
        "names": [
          "a known path with another method is a 405 with Allow"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.1"
    ],
    "labelHtml": "",
    "saysHtml": "<code>GET /pets</code>, operation <code>listPets</code>",
    "code": [
      {
        "path": "server/core/operations.ts",
        "names": [
          "ROUTES"
        ]
      },
      {
        "path": "server/core/router.ts",
        "names": [
          "createRouter"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "listPets"
        ]
      },
      {
        "path": "lib/petstore.ts",
        "names": [
          "listPetsPage"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/list-pets.test.ts",
        "names": [
          "listPets answers a JSON array of 20 pets in ascending id order by default"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.1"
    ],
    "labelHtml": "",
    "saysHtml": "<code>limit</code>: minimum 1, maximum 100, default 20",
    "code": [
      {
        "path": "lib/limits.ts",
        "names": [
          "MIN_LIMIT",
          "MAX_LIMIT",
          "DEFAULT_LIMIT"
        ]
      },
      {
        "path": "lib/validate.ts",
        "names": [
          "clampLimit"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "parseListQuery"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/list-pets.test.ts",
        "names": [
          "listPets clamps limit to 1..100",
          "listPets rejects a malformed, empty or repeated limit with invalid_parameter naming it"
        ]
      },
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "listPets() defaults to 20 pets in ascending id order"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.1"
    ],
    "labelHtml": "",
    "saysHtml": "<code>status</code> filters by availability",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "validateListQuery"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "parseListQuery"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/list-pets.test.ts",
        "names": [
          "listPets filters by status",
          "listPets rejects an unknown, empty or repeated status"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.1"
    ],
    "labelHtml": "",
    "saysHtml": "<code>200</code> Pets, <code>401</code> Error",
    "code": [
      {
        "path": "server/core/core.ts",
        "names": [
          "createRequestCore"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/docs-site/openapi/document.test.ts",
        "names": [
          "createOpenApiDocument() names the spec's operations, with getPet deprecated"
        ]
      },
      {
        "path": "test/extras/docs-site/served-openapi.test.ts",
        "names": [
          "the OpenAPI description documents exactly the statuses the server produces for each operation"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.2"
    ],
    "labelHtml": "",
    "saysHtml": "<code>POST /pets</code>, operation <code>createPet</code>, body NewPet",
    "code": [
      {
        "path": "server/core/operations.ts",
        "names": [
          "createPet"
        ]
      },
      {
        "path": "server/core/request.ts",
        "names": [
          "readJsonBody"
        ]
      },
      {
        "path": "lib/validate.ts",
        "names": [
          "validateNewPet"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet answers 201 with the Pet, a Location and the JSON headers"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.2"
    ],
    "labelHtml": "",
    "saysHtml": "<code>201</code> Pet with the assigned <code>id</code>",
    "code": [
      {
        "path": "server/core/operations.ts",
        "names": [
          "createPet"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet answers 201 with the Pet, a Location and the JSON headers"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.2"
    ],
    "labelHtml": "",
    "saysHtml": "<code>400</code> when required fields are missing or values invalid",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "validationError"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet answers 400 validation_failed with every problem in details",
          "createPet answers 400 invalid_json for empty, malformed and non-UTF-8 bodies"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.3"
    ],
    "labelHtml": "",
    "saysHtml": "<code>GET /pets/{petId}</code>, operation <code>getPet</code>, <code>petId</code> int64",
    "code": [
      {
        "path": "server/core/operations.ts",
        "names": [
          "getPet"
        ]
      },
      {
        "path": "lib/validate.ts",
        "names": [
          "validatePetId"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/get-pet.test.ts",
        "names": [
          "getPet answers 200 with the Pet and the deprecation headers",
          "getPet answers 400 invalid_parameter, with the deprecation headers, for a petId that is not a decimal integer"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.3"
    ],
    "labelHtml": "",
    "saysHtml": "<code>404</code> when the animal cannot be found",
    "code": [
      {
        "path": "lib/petstore.ts",
        "names": [
          "getPet"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/get-pet.test.ts",
        "names": [
          "getPet answers 404 not_found, with the deprecation headers, for ids no pet has"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.3",
      "9"
    ],
    "labelHtml": "",
    "saysHtml": "Deprecated, removed on 5 December 2030, replaced by <code>GET /pets</code> with <code>status</code>",
    "code": [
      {
        "path": "lib/versioning.ts",
        "names": [
          "GET_PET_SUNSET",
          "GET_PET_DEPRECATED_AT"
        ]
      },
      {
        "path": "server/core/operations.ts",
        "names": [
          "deprecationHeaders"
        ]
      },
      {
        "path": "extras/docs-site/openapi/operations.ts",
        "names": [
          "headersOnEveryAnswer"
        ]
      },
      {
        "path": "extras/client/deprecation.ts",
        "names": [
          "readDeprecation"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/get-pet.test.ts",
        "names": [
          "getPet answers 200 with the Pet and the deprecation headers"
        ]
      },
      {
        "path": "test/extras/client/petstore-client.test.ts",
        "names": [
          "PetstoreClient passes the Deprecation, Sunset and Link of getPet to onDeprecation"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.4"
    ],
    "labelHtml": "",
    "saysHtml": "Pagination beyond <code>limit</code>: not shown",
    "code": [
      {
        "path": "lib/petstore.ts",
        "names": [
          "listPetsPage"
        ]
      },
      {
        "path": "extras/client/petstore-client.ts",
        "names": [
          "pets"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/list-pets.test.ts",
        "names": [
          "listPets pages through every pet exactly once by following the Link header"
        ]
      },
      {
        "path": "test/extras/client/petstore-client.test.ts",
        "names": [
          "PetstoreClient.pets() follows Link: rel=\"next\" through every page"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.4"
    ],
    "labelHtml": "",
    "saysHtml": "<code>GET /store/orders</code> is named only",
    "code": [
      {
        "path": "server/core/operations.ts",
        "names": [
          "ROUTES"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/routing.test.ts",
        "names": [
          "an unknown path below /v1 is a 404 after auth"
        ]
      }
    ]
  },
  {
    "sections": [
      "4.4"
    ],
    "labelHtml": "",
    "saysHtml": "Quickstart: <code>POST /messages</code> with a required string <code>message</code>; <code>id</code>, <code>message</code>, <code>status</code> <code>queued</code>, <code>createdAt</code>; <code>401</code>, <code>400</code>",
    "code": [
      {
        "path": "examples/quickstart-messages.ts",
        "names": [
          "startMessagesServer",
          "validateMessage"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/examples/quickstart-messages.test.ts",
        "names": [
          "quickstart-messages answers 202 Accepted with id, message, status queued and createdAt [spec 4.4]",
          "quickstart-messages answers 401 for a missing or invalid key, in the Error shape",
          "quickstart-messages answers 400 for invalid JSON or a missing, empty or non-string message"
        ]
      }
    ]
  },
  {
    "sections": [
      "5.1"
    ],
    "labelHtml": "",
    "saysHtml": "Every operation requires the API key",
    "code": [
      {
        "path": "server/core/core.ts",
        "names": [
          "answerApi"
        ]
      },
      {
        "path": "server/core/auth.ts",
        "names": [
          "createAuthenticator"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/auth.test.ts",
        "names": [
          "every operation answers 401 without a key, with a Bearer challenge"
        ]
      }
    ]
  },
  {
    "sections": [
      "5.2"
    ],
    "labelHtml": "",
    "saysHtml": "<code>Authorization: Bearer &lt;API_KEY&gt;</code>",
    "code": [
      {
        "path": "server/core/auth.ts",
        "names": [
          "createAuthenticator"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/auth.test.ts",
        "names": [
          "the scheme name is case-insensitive (RFC 9110 §11.1)",
          "another scheme or an empty token is a missing credential"
        ]
      }
    ]
  },
  {
    "sections": [
      "5.3"
    ],
    "labelHtml": "",
    "saysHtml": "Security scheme HTTP <code>bearer</code>",
    "code": [
      {
        "path": "extras/docs-site/openapi/document.ts",
        "names": [
          "SECURITY_SCHEME",
          "createOpenApiDocument"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/docs-site/openapi/document.test.ts",
        "names": [
          "createOpenApiDocument() names the interface version, the /v1 server and root-level bearer security [spec 1, 5, 9]"
        ]
      }
    ]
  },
  {
    "sections": [
      "5.4"
    ],
    "labelHtml": "",
    "saysHtml": "<code>401</code> with an Error body when the key is missing or invalid",
    "code": [
      {
        "path": "server/core/auth.ts",
        "names": [
          "authError",
          "MISSING_CREDENTIAL_HEADERS",
          "INVALID_TOKEN_HEADERS"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/auth.test.ts",
        "names": [
          "a token matching no key is a 401 with error=\"invalid_token\", whatever its characters",
          "the key never appears in a response"
        ]
      }
    ]
  },
  {
    "sections": [
      "5.5"
    ],
    "labelHtml": "",
    "saysHtml": "<code>Content-Type: application/json</code> on requests with a body",
    "code": [
      {
        "path": "server/core/request.ts",
        "names": [
          "isJsonMediaType",
          "checkJsonBodyHead"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/core/create-pet.test.ts",
        "names": [
          "createPet answers 415 with Accept-Post for any other media type"
        ]
      }
    ]
  },
  {
    "sections": [
      "6"
    ],
    "labelHtml": "",
    "saysHtml": "No events or webhooks",
    "code": [],
    "tests": [],
    "codeNoteHtml": "nothing to implement: the OpenAPI description has no <code>webhooks</code>"
  },
  {
    "sections": [
      "7"
    ],
    "labelHtml": "",
    "saysHtml": "All errors use the Error body",
    "code": [
      {
        "path": "server/core/error-response.ts",
        "names": [
          "errorResponse"
        ]
      },
      {
        "path": "server/node/standalone/client-error.ts",
        "names": [
          "handleClientError",
          "rawErrorResponse"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/server/node/protocol.test.ts",
        "names": [
          "malformed request lines and headers are a 400 bad_request Error body"
        ]
      },
      {
        "path": "test/extras/docs-site/served-openapi.test.ts",
        "names": [
          "the OpenAPI description's shared responses are what the server answers outside any operation"
        ]
      }
    ]
  },
  {
    "sections": [
      "7"
    ],
    "labelHtml": "",
    "saysHtml": "<code>400</code> on <code>POST /pets</code>, <code>401</code> everywhere, <code>404</code> on <code>GET /pets/{petId}</code>",
    "code": [
      {
        "path": "extras/docs-site/openapi/operations.ts",
        "names": [
          "operationDefinitions"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/docs-site/served-openapi.test.ts",
        "names": [
          "the OpenAPI description documents exactly the statuses the server produces for each operation",
          "the OpenAPI description documents every answer to further requests on each operation"
        ]
      }
    ]
  },
  {
    "sections": [
      "7"
    ],
    "labelHtml": "",
    "saysHtml": "The set of <code>code</code> values: not shown",
    "code": [
      {
        "path": "lib/errors.ts",
        "names": [
          "ERROR_CODES"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/errors.test.ts",
        "names": [
          "ERROR_CODES maps every code to an HTTP error status"
        ]
      },
      {
        "path": "test/docs/http-behaviour.test.ts",
        "names": [
          "docs/http-behaviour.md error code table is ERROR_CODES, in its order"
        ]
      }
    ]
  },
  {
    "sections": [
      "8"
    ],
    "labelHtml": "",
    "saysHtml": "<code>limit</code> 1 to 100, default 20",
    "code": [
      {
        "path": "lib/validate.ts",
        "names": [
          "clampLimit"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/lib/petstore.test.ts",
        "names": [
          "listPets() clamps limits outside 1..100 instead of rejecting them"
        ]
      }
    ]
  },
  {
    "sections": [
      "9"
    ],
    "labelHtml": "",
    "saysHtml": "Interface version <code>1.0.0</code>",
    "code": [
      {
        "path": "lib/versioning.ts",
        "names": [
          "INTERFACE_VERSION"
        ]
      }
    ],
    "tests": [
      {
        "path": "test/extras/docs-site/openapi/document.test.ts",
        "names": [
          "createOpenApiDocument() names the interface version, the /v1 server and root-level bearer security [spec 1, 5, 9]"
        ]
      }
    ]
  },
  {
    "sections": [
      "9"
    ],
    "labelHtml": "",
    "saysHtml": "Stability labels <code>experimental</code>, <code>beta</code> in the store area",
    "code": [],
    "tests": [
      {
        "path": "test/server/core/routing.test.ts",
        "names": [
          "an unknown path below /v1 is a 404 after auth"
        ]
      }
    ],
    "codeNoteHtml": "nothing to implement: the store area is not described, so it is not served"
  }
];
