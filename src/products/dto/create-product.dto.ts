import { COMMON_LIMITS } from '../../common/limits';
import { OptionalText, OptionalUrl, RequiredText } from '../../common/validation';
import { PRODUCT_LIMITS } from '../product.limits';

export class CreateProductDto {
  @RequiredText({ description: 'Name of the product.', example: 'Acme Notes', max: PRODUCT_LIMITS.name, notBlank: true })
  name: string;

  @OptionalText({ description: 'Detailed description of the product.', example: 'A note-taking app for research teams.', max: PRODUCT_LIMITS.desc })
  desc?: string | null;

  @OptionalText({ description: 'Owning organization. At least one of orgID and userID is required.', example: 'org_acme', max: COMMON_LIMITS.ownerId })
  orgID?: string | null;

  @OptionalText({ description: 'Owning user. At least one of orgID and userID is required.', example: 'user_42', max: COMMON_LIMITS.ownerId })
  userID?: string | null;

  @OptionalUrl('Link to the product page, where one exists.', 'https://acme.example/notes')
  url?: string | null;

  @OptionalUrl('URL of an image of the product.', 'https://acme.example/notes.png')
  imageLink?: string | null;
}
