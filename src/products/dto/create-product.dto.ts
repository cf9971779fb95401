import { OptionalOwnerId, OptionalText, OptionalUrl, RequiredText } from '../../common/validation';
import { PRODUCT_LIMITS } from '../product.limits';

export class CreateProductDto {
  @RequiredText({ description: 'Name of the product.', example: 'Acme Notes', max: PRODUCT_LIMITS.name, notBlank: true })
  name: string;

  @OptionalText({ description: 'Detailed description of the product.', example: 'A note-taking app for research teams.', max: PRODUCT_LIMITS.desc })
  desc?: string | null;

  @OptionalOwnerId('Owning organization. At least one of orgID and userID is required. Compared exactly: no whitespace at either end.', 'org_acme')
  orgID?: string | null;

  @OptionalOwnerId('Owning user. At least one of orgID and userID is required. Compared exactly: no whitespace at either end.', 'user_42')
  userID?: string | null;

  @OptionalUrl('Link to the product page, where one exists.', 'https://acme.example/notes')
  url?: string | null;

  @OptionalUrl('URL of an image of the product.', 'https://acme.example/notes.png')
  imageLink?: string | null;
}
